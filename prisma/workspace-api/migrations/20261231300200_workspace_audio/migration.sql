-- Whether a workspace's sessions may play their desktop's sound in the browser (issue 39,
-- sound; Kasm's allow_kasm_audio). Allowed by default; an operator turns it off per workspace.

ALTER TABLE "image" ADD COLUMN "allow_audio" BOOLEAN NOT NULL DEFAULT true;

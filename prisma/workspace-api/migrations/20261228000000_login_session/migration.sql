-- A browser's login session is a `login_session` (model LoginSession), not a bare `session`: the
-- platform's sessions are the workspaces' (`kasm`). Its index and constraint names follow the table.
ALTER TABLE "session" RENAME TO "login_session";
ALTER TABLE "login_session" RENAME CONSTRAINT "session_pkey" TO "login_session_pkey";
ALTER TABLE "login_session" RENAME CONSTRAINT "session_user_id_fkey" TO "login_session_user_id_fkey";
ALTER INDEX "session_token_hash_key" RENAME TO "login_session_token_hash_key";
ALTER INDEX "session_user_id_idx" RENAME TO "login_session_user_id_idx";

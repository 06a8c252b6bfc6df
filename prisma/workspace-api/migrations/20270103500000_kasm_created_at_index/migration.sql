-- The console's overview counts the launches of the last 24 hours by the hour: sessions are kept
-- after they end, so that query reads a day of rows by their creation time, not the whole table.

CREATE INDEX "kasm_created_at_idx" ON "kasm"("created_at");

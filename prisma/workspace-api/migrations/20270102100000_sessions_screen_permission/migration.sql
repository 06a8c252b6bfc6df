-- Reading a session's screen has a permission of its own, sessions.screen (issue 40, driving a
-- session by program): get_kasm_screenshot needed sessions.modify until now. Every API key and
-- group that held sessions.modify is given sessions.screen too, so that none loses what it could
-- do; sessions.drive (input) is new and given to none.

UPDATE "api_key" SET "permissions" = array_append("permissions", 'sessions.screen')
  WHERE 'sessions.modify' = ANY ("permissions") AND NOT ('sessions.screen' = ANY ("permissions"));

UPDATE "group" SET "permissions" = array_append("permissions", 'sessions.screen')
  WHERE 'sessions.modify' = ANY ("permissions") AND NOT ('sessions.screen' = ANY ("permissions"));

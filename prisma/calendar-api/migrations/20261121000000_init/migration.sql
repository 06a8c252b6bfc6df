-- calendar-api starts with its own, empty schema; the runner creates it and records this
-- migration. Feature migrations add the tables.
SELECT 1;

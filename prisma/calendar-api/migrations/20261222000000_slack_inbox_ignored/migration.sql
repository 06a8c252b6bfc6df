-- A Slack event the inbox worker decided not to apply (a message it cannot read without
-- guessing, or an older version of a message than the one stored) ends 'ignored', with the
-- reason. Nothing is posted back to the channel.

ALTER TABLE "slack_inbox" DROP CONSTRAINT "slack_inbox_status_check";
ALTER TABLE "slack_inbox" ADD CONSTRAINT "slack_inbox_status_check"
    CHECK ("status" IN ('pending', 'done', 'failed', 'ignored'));
ALTER TABLE "slack_inbox" ADD COLUMN "ignored_reason" VARCHAR(1000);

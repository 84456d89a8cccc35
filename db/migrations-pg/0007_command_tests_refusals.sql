-- Issue 36: a command call run from the dashboard is marked (`test`), listed in the activity feed and
-- never counted as a viewer's; a chat command a limit kept from a reply says why (`refused`: cooldown,
-- viewer_limit, user_level, chat_budget), listed and not counted either. Earlier panel tests were
-- stored under the caller "(panel test)": they become marked tests with no caller.
ALTER TABLE "events" ADD COLUMN "test" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "refused" text;--> statement-breakpoint
UPDATE "events" SET "test" = true, "caller" = '' WHERE "caller" = '(panel test)';

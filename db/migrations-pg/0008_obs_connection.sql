CREATE TABLE "obs_settings" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"enabled" boolean DEFAULT false NOT NULL,
	"url" text NOT NULL,
	"via" text NOT NULL,
	"password_sealed" text,
	"state" text DEFAULT 'off' NOT NULL,
	"state_since" bigint,
	"reason" text,
	"obs_version" text,
	"scenes" jsonb NOT NULL,
	"sources" jsonb NOT NULL,
	"updated_at" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "obs_settings" ADD CONSTRAINT "obs_settings_account_id_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE TRIGGER "obs_settings_insert_delete_cache_changes" AFTER INSERT OR DELETE ON "obs_settings" FOR EACH ROW EXECUTE FUNCTION cuebot_notify_cache_change();
--> statement-breakpoint
CREATE TRIGGER "obs_settings_update_cache_changes" AFTER UPDATE OF "enabled", "url", "via", "password_sealed" ON "obs_settings" FOR EACH ROW WHEN (OLD."enabled" IS DISTINCT FROM NEW."enabled" OR OLD."url" IS DISTINCT FROM NEW."url" OR OLD."via" IS DISTINCT FROM NEW."via" OR OLD."password_sealed" IS DISTINCT FROM NEW."password_sealed") EXECUTE FUNCTION cuebot_notify_cache_change();

-- A write that names a cached column but leaves it as it was (a token refresh stores the same scopes,
-- the switch is set to what it already is) changes nothing cached: it no longer notifies, so the other
-- instances keep their caches (migration 0002 made every such write count).
DROP TRIGGER "api_keys_update_cache_changes" ON "api_keys";
--> statement-breakpoint
CREATE TRIGGER "api_keys_update_cache_changes" AFTER UPDATE OF "account_id", "lookup_hash", "encrypted" ON "api_keys" FOR EACH ROW WHEN (OLD."account_id" IS DISTINCT FROM NEW."account_id" OR OLD."lookup_hash" IS DISTINCT FROM NEW."lookup_hash" OR OLD."encrypted" IS DISTINCT FROM NEW."encrypted") EXECUTE FUNCTION cuebot_notify_cache_change();
--> statement-breakpoint
DROP TRIGGER "overlay_tokens_update_cache_changes" ON "overlay_tokens";
--> statement-breakpoint
CREATE TRIGGER "overlay_tokens_update_cache_changes" AFTER UPDATE OF "account_id", "lookup_hash", "encrypted" ON "overlay_tokens" FOR EACH ROW WHEN (OLD."account_id" IS DISTINCT FROM NEW."account_id" OR OLD."lookup_hash" IS DISTINCT FROM NEW."lookup_hash" OR OLD."encrypted" IS DISTINCT FROM NEW."encrypted") EXECUTE FUNCTION cuebot_notify_cache_change();
--> statement-breakpoint
DROP TRIGGER "oauth_tokens_update_cache_changes" ON "oauth_tokens";
--> statement-breakpoint
CREATE TRIGGER "oauth_tokens_update_cache_changes" AFTER UPDATE OF "scopes" ON "oauth_tokens" FOR EACH ROW WHEN (OLD."scopes" IS DISTINCT FROM NEW."scopes") EXECUTE FUNCTION cuebot_notify_cache_change();
--> statement-breakpoint
DROP TRIGGER "chat_settings_update_cache_changes" ON "chat_settings";
--> statement-breakpoint
CREATE TRIGGER "chat_settings_update_cache_changes" AFTER UPDATE OF "enabled" ON "chat_settings" FOR EACH ROW WHEN (OLD."enabled" IS DISTINCT FROM NEW."enabled") EXECUTE FUNCTION cuebot_notify_cache_change();
--> statement-breakpoint
DROP TRIGGER "chat_bots_update_cache_changes" ON "chat_bots";
--> statement-breakpoint
CREATE TRIGGER "chat_bots_update_cache_changes" AFTER UPDATE OF "twitch_user_id", "login", "display_name", "scopes", "needs_reauth" ON "chat_bots" FOR EACH ROW WHEN (OLD."twitch_user_id" IS DISTINCT FROM NEW."twitch_user_id" OR OLD."login" IS DISTINCT FROM NEW."login" OR OLD."display_name" IS DISTINCT FROM NEW."display_name" OR OLD."scopes" IS DISTINCT FROM NEW."scopes" OR OLD."needs_reauth" IS DISTINCT FROM NEW."needs_reauth") EXECUTE FUNCTION cuebot_notify_cache_change();

-- What running servers cache (accounts, keys, tokens, command and chat settings) sends one
-- notification on the channel `cuebot_cache_changes` with every write, whichever process writes (an
-- instance, the CLI). PostgreSQL delivers it when the writing transaction commits, once per
-- transaction, to every instance listening, which then flushes its caches. Like SQLite's counter
-- (migration 0002 there), analytics events, sessions, the audit log and overlay state send nothing,
-- nor do bookkeeping columns of cached tables (a key's last use, refreshed access tokens, the chat
-- state the instance holding chat reports).
CREATE FUNCTION cuebot_notify_cache_change() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('cuebot_cache_changes', '');
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER "accounts_insert_delete_cache_changes" AFTER INSERT OR DELETE ON "accounts" FOR EACH ROW EXECUTE FUNCTION cuebot_notify_cache_change();
--> statement-breakpoint
CREATE TRIGGER "accounts_update_cache_changes" AFTER UPDATE ON "accounts" FOR EACH ROW EXECUTE FUNCTION cuebot_notify_cache_change();
--> statement-breakpoint
CREATE TRIGGER "api_keys_insert_delete_cache_changes" AFTER INSERT OR DELETE ON "api_keys" FOR EACH ROW EXECUTE FUNCTION cuebot_notify_cache_change();
--> statement-breakpoint
CREATE TRIGGER "api_keys_update_cache_changes" AFTER UPDATE OF "account_id", "lookup_hash", "encrypted" ON "api_keys" FOR EACH ROW EXECUTE FUNCTION cuebot_notify_cache_change();
--> statement-breakpoint
CREATE TRIGGER "overlay_tokens_insert_delete_cache_changes" AFTER INSERT OR DELETE ON "overlay_tokens" FOR EACH ROW EXECUTE FUNCTION cuebot_notify_cache_change();
--> statement-breakpoint
CREATE TRIGGER "overlay_tokens_update_cache_changes" AFTER UPDATE OF "account_id", "lookup_hash", "encrypted" ON "overlay_tokens" FOR EACH ROW EXECUTE FUNCTION cuebot_notify_cache_change();
--> statement-breakpoint
CREATE TRIGGER "oauth_tokens_insert_delete_cache_changes" AFTER INSERT OR DELETE ON "oauth_tokens" FOR EACH ROW EXECUTE FUNCTION cuebot_notify_cache_change();
--> statement-breakpoint
CREATE TRIGGER "oauth_tokens_update_cache_changes" AFTER UPDATE OF "scopes" ON "oauth_tokens" FOR EACH ROW EXECUTE FUNCTION cuebot_notify_cache_change();
--> statement-breakpoint
CREATE TRIGGER "command_settings_insert_delete_cache_changes" AFTER INSERT OR DELETE ON "command_settings" FOR EACH ROW EXECUTE FUNCTION cuebot_notify_cache_change();
--> statement-breakpoint
CREATE TRIGGER "command_settings_update_cache_changes" AFTER UPDATE ON "command_settings" FOR EACH ROW EXECUTE FUNCTION cuebot_notify_cache_change();
--> statement-breakpoint
CREATE TRIGGER "chat_settings_insert_delete_cache_changes" AFTER INSERT OR DELETE ON "chat_settings" FOR EACH ROW EXECUTE FUNCTION cuebot_notify_cache_change();
--> statement-breakpoint
CREATE TRIGGER "chat_settings_update_cache_changes" AFTER UPDATE OF "enabled" ON "chat_settings" FOR EACH ROW EXECUTE FUNCTION cuebot_notify_cache_change();
--> statement-breakpoint
CREATE TRIGGER "chat_bots_insert_delete_cache_changes" AFTER INSERT OR DELETE ON "chat_bots" FOR EACH ROW EXECUTE FUNCTION cuebot_notify_cache_change();
--> statement-breakpoint
CREATE TRIGGER "chat_bots_update_cache_changes" AFTER UPDATE OF "twitch_user_id", "login", "display_name", "scopes", "needs_reauth" ON "chat_bots" FOR EACH ROW EXECUTE FUNCTION cuebot_notify_cache_change();

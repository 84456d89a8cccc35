-- A write that names a cached column but leaves it as it was (a token refresh stores the same scopes,
-- the switch is set to what it already is) changes nothing cached: the counter no longer moves for it,
-- so other instances keep their caches (migration 0002 made every such write count).
DROP TRIGGER `api_keys_update_cache_changes`;
--> statement-breakpoint
CREATE TRIGGER `api_keys_update_cache_changes` AFTER UPDATE OF `account_id`, `lookup_hash`, `encrypted` ON `api_keys` WHEN OLD.`account_id` IS NOT NEW.`account_id` OR OLD.`lookup_hash` IS NOT NEW.`lookup_hash` OR OLD.`encrypted` IS NOT NEW.`encrypted` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
DROP TRIGGER `overlay_tokens_update_cache_changes`;
--> statement-breakpoint
CREATE TRIGGER `overlay_tokens_update_cache_changes` AFTER UPDATE OF `account_id`, `lookup_hash`, `encrypted` ON `overlay_tokens` WHEN OLD.`account_id` IS NOT NEW.`account_id` OR OLD.`lookup_hash` IS NOT NEW.`lookup_hash` OR OLD.`encrypted` IS NOT NEW.`encrypted` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
DROP TRIGGER `oauth_tokens_update_cache_changes`;
--> statement-breakpoint
CREATE TRIGGER `oauth_tokens_update_cache_changes` AFTER UPDATE OF `scopes` ON `oauth_tokens` WHEN OLD.`scopes` IS NOT NEW.`scopes` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
DROP TRIGGER `chat_settings_update_cache_changes`;
--> statement-breakpoint
CREATE TRIGGER `chat_settings_update_cache_changes` AFTER UPDATE OF `enabled` ON `chat_settings` WHEN OLD.`enabled` IS NOT NEW.`enabled` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
DROP TRIGGER `chat_bots_update_cache_changes`;
--> statement-breakpoint
CREATE TRIGGER `chat_bots_update_cache_changes` AFTER UPDATE OF `twitch_user_id`, `login`, `display_name`, `scopes`, `needs_reauth` ON `chat_bots` WHEN OLD.`twitch_user_id` IS NOT NEW.`twitch_user_id` OR OLD.`login` IS NOT NEW.`login` OR OLD.`display_name` IS NOT NEW.`display_name` OR OLD.`scopes` IS NOT NEW.`scopes` OR OLD.`needs_reauth` IS NOT NEW.`needs_reauth` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;

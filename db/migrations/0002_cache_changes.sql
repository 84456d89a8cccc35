-- What running servers cache (accounts, keys, tokens, command and chat settings) bumps one counter on
-- every write, in the writing transaction, whichever process writes (a server, another instance, the
-- CLI). A server that sees another process commit reads the counter and flushes its caches only when
-- it moved: analytics events, sessions, the audit log and overlay state do not flush anything, nor do
-- bookkeeping columns of cached tables (a key's last use, refreshed access tokens, the chat state the
-- instance holding chat reports).
CREATE TABLE `cache_changes` (
	`id` integer PRIMARY KEY NOT NULL CHECK (`id` = 1),
	`n` integer NOT NULL
);
--> statement-breakpoint
INSERT INTO `cache_changes` (`id`, `n`) VALUES (1, 0);
--> statement-breakpoint
CREATE TRIGGER `accounts_insert_cache_changes` AFTER INSERT ON `accounts` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `accounts_update_cache_changes` AFTER UPDATE ON `accounts` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `accounts_delete_cache_changes` AFTER DELETE ON `accounts` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `api_keys_insert_cache_changes` AFTER INSERT ON `api_keys` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `api_keys_update_cache_changes` AFTER UPDATE OF `account_id`, `lookup_hash`, `encrypted` ON `api_keys` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `api_keys_delete_cache_changes` AFTER DELETE ON `api_keys` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `overlay_tokens_insert_cache_changes` AFTER INSERT ON `overlay_tokens` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `overlay_tokens_update_cache_changes` AFTER UPDATE OF `account_id`, `lookup_hash`, `encrypted` ON `overlay_tokens` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `overlay_tokens_delete_cache_changes` AFTER DELETE ON `overlay_tokens` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `oauth_tokens_insert_cache_changes` AFTER INSERT ON `oauth_tokens` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `oauth_tokens_update_cache_changes` AFTER UPDATE OF `scopes` ON `oauth_tokens` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `oauth_tokens_delete_cache_changes` AFTER DELETE ON `oauth_tokens` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `command_settings_insert_cache_changes` AFTER INSERT ON `command_settings` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `command_settings_update_cache_changes` AFTER UPDATE ON `command_settings` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `command_settings_delete_cache_changes` AFTER DELETE ON `command_settings` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `chat_settings_insert_cache_changes` AFTER INSERT ON `chat_settings` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `chat_settings_update_cache_changes` AFTER UPDATE OF `enabled` ON `chat_settings` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `chat_settings_delete_cache_changes` AFTER DELETE ON `chat_settings` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `chat_bots_insert_cache_changes` AFTER INSERT ON `chat_bots` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `chat_bots_update_cache_changes` AFTER UPDATE OF `twitch_user_id`, `login`, `display_name`, `scopes`, `needs_reauth` ON `chat_bots` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `chat_bots_delete_cache_changes` AFTER DELETE ON `chat_bots` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;

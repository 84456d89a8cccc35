-- Chat moderation (issue 35). What a running server caches of it (whether an account has moderation on,
-- its filter and shield settings, the shield's end) notifies the other instances as in migration 0002
-- when it changes; the state a server reports and the moderation log never flush anything.
CREATE TABLE `moderation_channels` (
	`account_id` integer PRIMARY KEY NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`state` text DEFAULT 'off' NOT NULL,
	`state_since` integer,
	`reason` text,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `moderation_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`at` integer NOT NULL,
	`user_id` text NOT NULL,
	`user_login` text NOT NULL,
	`user_name` text NOT NULL,
	`filter` text,
	`action` text NOT NULL,
	`seconds` integer,
	`text` text,
	`undone` integer DEFAULT false NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `moderation_log_account_id_idx` ON `moderation_log` (`account_id`,`id`);--> statement-breakpoint
CREATE INDEX `moderation_log_at_idx` ON `moderation_log` (`at`);--> statement-breakpoint
CREATE TABLE `moderation_rules` (
	`account_id` integer PRIMARY KEY NOT NULL,
	`filters` text NOT NULL,
	`shield` text NOT NULL,
	`shield_until` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TRIGGER `moderation_channels_insert_cache_changes` AFTER INSERT ON `moderation_channels` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `moderation_channels_delete_cache_changes` AFTER DELETE ON `moderation_channels` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `moderation_channels_update_cache_changes` AFTER UPDATE OF `enabled` ON `moderation_channels` WHEN OLD.`enabled` IS NOT NEW.`enabled` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `moderation_rules_insert_cache_changes` AFTER INSERT ON `moderation_rules` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `moderation_rules_delete_cache_changes` AFTER DELETE ON `moderation_rules` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `moderation_rules_update_cache_changes` AFTER UPDATE OF `filters`, `shield`, `shield_until` ON `moderation_rules` WHEN OLD.`filters` IS NOT NEW.`filters` OR OLD.`shield` IS NOT NEW.`shield` OR OLD.`shield_until` IS NOT NEW.`shield_until` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;

-- Stream alerts (issue 25). What a running server may cache of them (whether an account has alerts
-- on, each type's settings) bumps the cache counter as in migration 0002 when it changes; the state a
-- server reports, the alert history and the uploaded assets change with use and never flush anything.
CREATE TABLE `alert_assets` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`kind` text NOT NULL,
	`content_type` text NOT NULL,
	`bytes` blob NOT NULL,
	`size` integer NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `alert_assets_account_idx` ON `alert_assets` (`account_id`);--> statement-breakpoint
CREATE TABLE `alert_channels` (
	`account_id` integer PRIMARY KEY NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`state` text DEFAULT 'off' NOT NULL,
	`state_since` integer,
	`reason` text,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `alert_events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`type` text NOT NULL,
	`event_key` text NOT NULL,
	`fields` text NOT NULL,
	`test` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `alert_events_account_key_idx` ON `alert_events` (`account_id`,`event_key`);--> statement-breakpoint
CREATE INDEX `alert_events_account_id_idx` ON `alert_events` (`account_id`,`id`);--> statement-breakpoint
CREATE TABLE `alert_settings` (
	`account_id` integer NOT NULL,
	`type` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`template` text NOT NULL,
	`min_amount` integer DEFAULT 0 NOT NULL,
	`duration_seconds` integer DEFAULT 6 NOT NULL,
	`volume` integer DEFAULT 80 NOT NULL,
	`image_id` integer,
	`sound_id` integer,
	`chat_message` text,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`account_id`, `type`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`image_id`) REFERENCES `alert_assets`(`id`) ON UPDATE no action ON DELETE set null,
	FOREIGN KEY (`sound_id`) REFERENCES `alert_assets`(`id`) ON UPDATE no action ON DELETE set null
);
--> statement-breakpoint
CREATE TRIGGER `alert_channels_insert_cache_changes` AFTER INSERT ON `alert_channels` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `alert_channels_delete_cache_changes` AFTER DELETE ON `alert_channels` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `alert_channels_update_cache_changes` AFTER UPDATE OF `enabled` ON `alert_channels` WHEN OLD.`enabled` IS NOT NEW.`enabled` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `alert_settings_insert_cache_changes` AFTER INSERT ON `alert_settings` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `alert_settings_delete_cache_changes` AFTER DELETE ON `alert_settings` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `alert_settings_update_cache_changes` AFTER UPDATE OF `account_id`, `type`, `enabled`, `template`, `min_amount`, `duration_seconds`, `volume`, `image_id`, `sound_id`, `chat_message` ON `alert_settings` WHEN OLD.`account_id` IS NOT NEW.`account_id` OR OLD.`type` IS NOT NEW.`type` OR OLD.`enabled` IS NOT NEW.`enabled` OR OLD.`template` IS NOT NEW.`template` OR OLD.`min_amount` IS NOT NEW.`min_amount` OR OLD.`duration_seconds` IS NOT NEW.`duration_seconds` OR OLD.`volume` IS NOT NEW.`volume` OR OLD.`image_id` IS NOT NEW.`image_id` OR OLD.`sound_id` IS NOT NEW.`sound_id` OR OLD.`chat_message` IS NOT NEW.`chat_message` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;

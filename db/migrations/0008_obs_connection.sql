CREATE TABLE `obs_settings` (
	`account_id` integer PRIMARY KEY NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`url` text NOT NULL,
	`via` text NOT NULL,
	`password_sealed` text,
	`state` text DEFAULT 'off' NOT NULL,
	`state_since` integer,
	`reason` text,
	`obs_version` text,
	`scenes` text NOT NULL,
	`sources` text NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TRIGGER `obs_settings_insert_cache_changes` AFTER INSERT ON `obs_settings` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `obs_settings_delete_cache_changes` AFTER DELETE ON `obs_settings` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `obs_settings_update_cache_changes` AFTER UPDATE OF `enabled`, `url`, `via`, `password_sealed` ON `obs_settings` WHEN OLD.`enabled` IS NOT NEW.`enabled` OR OLD.`url` IS NOT NEW.`url` OR OLD.`via` IS NOT NEW.`via` OR OLD.`password_sealed` IS NOT NEW.`password_sealed` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;

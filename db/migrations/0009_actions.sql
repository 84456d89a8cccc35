CREATE TABLE `action_runs` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`action_id` integer NOT NULL,
	`account_id` integer NOT NULL,
	`at` integer NOT NULL,
	`ok` integer NOT NULL,
	`cause` text NOT NULL,
	`user` text NOT NULL,
	`steps` text NOT NULL,
	FOREIGN KEY (`action_id`) REFERENCES `actions`(`id`) ON UPDATE no action ON DELETE cascade,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `action_runs_action_id_idx` ON `action_runs` (`action_id`,`id`);--> statement-breakpoint
CREATE TABLE `actions` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`name` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`cooldown_seconds` integer DEFAULT 0 NOT NULL,
	`trigger` text NOT NULL,
	`steps` text NOT NULL,
	`last_run_at` integer,
	`last_run_ok` integer,
	`last_run_error` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `actions_account_id_idx` ON `actions` (`account_id`,`id`);--> statement-breakpoint
CREATE TRIGGER `actions_insert_cache_changes` AFTER INSERT ON `actions` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `actions_delete_cache_changes` AFTER DELETE ON `actions` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `actions_update_cache_changes` AFTER UPDATE OF `account_id`, `name`, `enabled`, `cooldown_seconds`, `trigger`, `steps` ON `actions` WHEN OLD.`account_id` IS NOT NEW.`account_id` OR OLD.`name` IS NOT NEW.`name` OR OLD.`enabled` IS NOT NEW.`enabled` OR OLD.`cooldown_seconds` IS NOT NEW.`cooldown_seconds` OR OLD.`trigger` IS NOT NEW.`trigger` OR OLD.`steps` IS NOT NEW.`steps` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;

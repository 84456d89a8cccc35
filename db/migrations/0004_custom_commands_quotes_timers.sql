-- Custom commands, regulars, quotes and timers (issue 24). What a chat line needs (a command's
-- definition, who is a regular, the timers) is what running servers may cache, so writes to those
-- columns bump the cache counter as in migration 0002; a command's count, a timer's last post and
-- quotes change with use and never flush anything.
CREATE TABLE `custom_commands` (
	`account_id` integer NOT NULL,
	`name` text NOT NULL,
	`response` text NOT NULL,
	`user_level` text DEFAULT 'everyone' NOT NULL,
	`cooldown_seconds` integer DEFAULT 0 NOT NULL,
	`user_cooldown_seconds` integer DEFAULT 0 NOT NULL,
	`alias_target` text,
	`count` integer DEFAULT 0 NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`account_id`, `name`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `quote_counters` (
	`account_id` integer PRIMARY KEY NOT NULL,
	`last_number` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `quotes` (
	`account_id` integer NOT NULL,
	`number` integer NOT NULL,
	`text` text NOT NULL,
	`search_text` text NOT NULL,
	`game` text,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`account_id`, `number`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `regulars` (
	`account_id` integer NOT NULL,
	`twitch_user_id` text NOT NULL,
	`login` text NOT NULL,
	`created_at` integer NOT NULL,
	PRIMARY KEY(`account_id`, `twitch_user_id`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `regulars_account_login_idx` ON `regulars` (`account_id`,`login`);--> statement-breakpoint
CREATE TABLE `timers` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`name` text NOT NULL,
	`message` text NOT NULL,
	`interval_minutes` integer NOT NULL,
	`min_chat_lines` integer DEFAULT 2 NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`last_posted_at` integer,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `timers_account_name_idx` ON `timers` (`account_id`,`name`);--> statement-breakpoint
CREATE TRIGGER `custom_commands_insert_cache_changes` AFTER INSERT ON `custom_commands` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `custom_commands_delete_cache_changes` AFTER DELETE ON `custom_commands` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `custom_commands_update_cache_changes` AFTER UPDATE OF `account_id`, `name`, `response`, `user_level`, `cooldown_seconds`, `user_cooldown_seconds`, `alias_target` ON `custom_commands` WHEN OLD.`account_id` IS NOT NEW.`account_id` OR OLD.`name` IS NOT NEW.`name` OR OLD.`response` IS NOT NEW.`response` OR OLD.`user_level` IS NOT NEW.`user_level` OR OLD.`cooldown_seconds` IS NOT NEW.`cooldown_seconds` OR OLD.`user_cooldown_seconds` IS NOT NEW.`user_cooldown_seconds` OR OLD.`alias_target` IS NOT NEW.`alias_target` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `regulars_insert_cache_changes` AFTER INSERT ON `regulars` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `regulars_delete_cache_changes` AFTER DELETE ON `regulars` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `regulars_update_cache_changes` AFTER UPDATE OF `account_id`, `twitch_user_id`, `login` ON `regulars` WHEN OLD.`account_id` IS NOT NEW.`account_id` OR OLD.`twitch_user_id` IS NOT NEW.`twitch_user_id` OR OLD.`login` IS NOT NEW.`login` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `timers_insert_cache_changes` AFTER INSERT ON `timers` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `timers_delete_cache_changes` AFTER DELETE ON `timers` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;
--> statement-breakpoint
CREATE TRIGGER `timers_update_cache_changes` AFTER UPDATE OF `account_id`, `name`, `message`, `interval_minutes`, `min_chat_lines`, `enabled` ON `timers` WHEN OLD.`account_id` IS NOT NEW.`account_id` OR OLD.`name` IS NOT NEW.`name` OR OLD.`message` IS NOT NEW.`message` OR OLD.`interval_minutes` IS NOT NEW.`interval_minutes` OR OLD.`min_chat_lines` IS NOT NEW.`min_chat_lines` OR OLD.`enabled` IS NOT NEW.`enabled` BEGIN UPDATE `cache_changes` SET `n` = `n` + 1 WHERE `id` = 1; END;

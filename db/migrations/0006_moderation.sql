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

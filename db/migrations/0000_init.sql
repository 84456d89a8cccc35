CREATE TABLE `accounts` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`twitch_user_id` text NOT NULL,
	`login` text NOT NULL,
	`display_name` text NOT NULL,
	`profile_image_url` text DEFAULT '' NOT NULL,
	`timezone` text DEFAULT 'UTC' NOT NULL,
	`role` text DEFAULT 'Default' NOT NULL,
	`panel_limit_override` integer,
	`needs_reauth` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_twitch_user_id_unique` ON `accounts` (`twitch_user_id`);--> statement-breakpoint
CREATE UNIQUE INDEX `accounts_login_unique` ON `accounts` (`login`);--> statement-breakpoint
CREATE TABLE `api_keys` (
	`account_id` integer PRIMARY KEY NOT NULL,
	`lookup_hash` text NOT NULL,
	`encrypted` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_lookup_hash_unique` ON `api_keys` (`lookup_hash`);--> statement-breakpoint
CREATE TABLE `audit_log` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`at` integer NOT NULL,
	`account_id` integer,
	`login` text NOT NULL,
	`actor` text NOT NULL,
	`action` text NOT NULL,
	`detail` text DEFAULT '{}' NOT NULL
);
--> statement-breakpoint
CREATE INDEX `audit_account_idx` ON `audit_log` (`account_id`,`at`);--> statement-breakpoint
CREATE TABLE `command_settings` (
	`account_id` integer NOT NULL,
	`command` text NOT NULL,
	`enabled` integer DEFAULT true NOT NULL,
	`cooldown_seconds` integer DEFAULT 0 NOT NULL,
	`options` text DEFAULT '{}' NOT NULL,
	`updated_at` integer NOT NULL,
	PRIMARY KEY(`account_id`, `command`),
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `events` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`account_id` integer NOT NULL,
	`at` integer NOT NULL,
	`command` text NOT NULL,
	`caller` text DEFAULT '' NOT NULL,
	`outcome` text NOT NULL,
	`latency_ms` integer DEFAULT 0 NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `events_account_at_idx` ON `events` (`account_id`,`at`);--> statement-breakpoint
CREATE TABLE `oauth_tokens` (
	`account_id` integer PRIMARY KEY NOT NULL,
	`access_token_encrypted` text NOT NULL,
	`refresh_token_encrypted` text NOT NULL,
	`scopes` text DEFAULT '[]' NOT NULL,
	`expires_at` integer NOT NULL,
	`validated_at` integer,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `overlay_state` (
	`account_id` integer PRIMARY KEY NOT NULL,
	`state` text DEFAULT '{}' NOT NULL,
	`version` integer DEFAULT 0 NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `overlay_tokens` (
	`account_id` integer PRIMARY KEY NOT NULL,
	`lookup_hash` text NOT NULL,
	`encrypted` text NOT NULL,
	`created_at` integer NOT NULL,
	`last_used_at` integer,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE UNIQUE INDEX `overlay_tokens_lookup_hash_unique` ON `overlay_tokens` (`lookup_hash`);--> statement-breakpoint
CREATE TABLE `sessions` (
	`id_hash` text PRIMARY KEY NOT NULL,
	`account_id` integer NOT NULL,
	`expires_at` integer NOT NULL,
	`created_at` integer NOT NULL,
	`last_seen_at` integer NOT NULL,
	`user_agent` text DEFAULT '' NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE INDEX `sessions_account_idx` ON `sessions` (`account_id`);
CREATE TABLE `chat_bots` (
	`account_id` integer PRIMARY KEY NOT NULL,
	`twitch_user_id` text NOT NULL,
	`login` text NOT NULL,
	`display_name` text NOT NULL,
	`access_token_encrypted` text NOT NULL,
	`refresh_token_encrypted` text NOT NULL,
	`scopes` text DEFAULT '[]' NOT NULL,
	`expires_at` integer NOT NULL,
	`needs_reauth` integer DEFAULT false NOT NULL,
	`created_at` integer NOT NULL,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
CREATE TABLE `chat_settings` (
	`account_id` integer PRIMARY KEY NOT NULL,
	`enabled` integer DEFAULT false NOT NULL,
	`state` text DEFAULT 'off' NOT NULL,
	`state_since` integer,
	`reason` text,
	`updated_at` integer NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`id`) ON UPDATE no action ON DELETE cascade
);
--> statement-breakpoint
ALTER TABLE `command_settings` ADD `aliases` text;
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

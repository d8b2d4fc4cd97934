ALTER TABLE "inbound_messages" ADD COLUMN "refused_in_answer" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "message_id" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "ticket_id" text;--> statement-breakpoint
ALTER TABLE "mail_outbox" ADD COLUMN "is_internal" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "mail_outbox_message_id_idx" ON "mail_outbox" USING btree ("message_id") WHERE "mail_outbox"."message_id" is not null;--> statement-breakpoint
-- Mail sent before threading by Message-ID (decision 083): its ticket is its notification's, and it was
-- about something staff-only when its signed reply address says so (".note.").
UPDATE "mail_outbox" m SET "message_id" = m."headers"->>'Message-ID', "ticket_id" = n."ticket_id",
  "is_internal" = coalesce(m."headers"->>'Reply-To', '') LIKE 'reply+%.note.%'
FROM "notifications" n
WHERE n."id" = m."notification_id" AND n."ticket_id" IS NOT NULL AND m."headers" ? 'Message-ID';

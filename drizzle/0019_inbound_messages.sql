CREATE TABLE "inbound_messages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "inbound_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"message_id" text NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"outcome" text NOT NULL,
	"detail" text,
	"ticket_id" text,
	"comment_id" text,
	"user_id" text,
	"received_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"processed_at" timestamp (3) with time zone,
	CONSTRAINT "inbound_messages_outcome_check" CHECK ("inbound_messages"."outcome" in ('processing', 'ticket_created', 'comment_added', 'ignored_auto_reply', 'refused'))
);
--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_messages_message_from_idx" ON "inbound_messages" USING btree ("message_id","from_address");--> statement-breakpoint
CREATE INDEX "inbound_messages_received_idx" ON "inbound_messages" USING btree ("received_at");
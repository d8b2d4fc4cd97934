import { z } from "zod";

/**
 * Admin settings › Ticket intake (decision 079): whether a staff member who raises a ticket for an address
 * no account has (requesterEmail) creates that account, invited as user management invites people. Off: the
 * person must already have an active account.
 */
export const ticketIntakeSettingsSchema = z.object({
  inviteUnknownRequesters: z.boolean({ error: "Invite unknown requesters must be true or false" }),
});
export type TicketIntakeSettings = z.infer<typeof ticketIntakeSettingsSchema>;

export const defaultTicketIntakeSettings: TicketIntakeSettings = { inviteUnknownRequesters: false };

import { authPageForms } from "./auth-page-forms.ts";
import type { PageForm } from "./page-forms.ts";
import { signInPageForms } from "./sign-in-page-form.ts";
import { ticketPageForms } from "./ticket-page-forms.ts";

/** Every form of the app that works without its code (decision 065), by the page it is on. */
export const pageForms: readonly PageForm[] = [...signInPageForms, ...authPageForms, ...ticketPageForms];

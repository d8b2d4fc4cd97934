import type { FastifyInstance, FastifyReply, FastifyRequest, LightMyRequestResponse } from "fastify";
import type { z } from "zod";
import { formNameField } from "#shared/page-rendering/page-forms.ts";
import type { FormAnswer } from "#shared/page-rendering/server-rendered.ts";
import { askOwnApi } from "./own-api.ts";

/** A form's fields as the browser posted them (application/x-www-form-urlencoded): the first of each name. */
export type FormFields = Readonly<Record<string, string>>;

/** Asks the app's own API as the person who posted the form (own-api.ts). */
export type AskApi = (
  method: "GET" | "POST" | "PUT" | "PATCH",
  url: string,
  body?: unknown,
  options?: { cookie?: string },
) => Promise<LightMyRequestResponse>;

/** Where the browser goes after a form that went through, with the cookies the API set (a new session). */
export type FormOutcome =
  | { redirect: string; cookies?: string[] }
  | {
      status: number;
      message: string;
      /** A later step of the same form (the sign-in's authenticator code). */
      step?: string;
      /** The API's error code, where the page shows something of its own for it. */
      code?: string;
      /**
       * What is wrong with each field, as the app's own check of the form says it (checkFields), or as the
       * API refused it (fieldErrorsOf).
       */
      fieldErrors?: Record<string, string>;
      /** Cookies the API set on the way (the sign-in's two-factor cookie). */
      cookies?: string[];
    };

/**
 * A form of the app that works without its code (decision 065): posted as plain HTML to the page it is on,
 * it is sent to the same API the app calls, and answered as the app would: the same redirect when it went
 * through, the page again with the API's message when it did not.
 */
export interface PageForm {
  /** The page the form is on, as Fastify writes routes ("/tickets/:ticketId"). */
  path: string;
  /**
   * The form's `name` attribute: the page shows the answer on that form only. Where a page has several
   * forms, each sends it in a hidden field (formNameField) too, which says which was posted.
   */
  name: string;
  /** Fields never written back into the page (passwords, keys). */
  secretFields?: readonly string[];
  submit(input: {
    fields: FormFields;
    /** Every field as posted, a name sent more than once (several ticked boxes) with each of its values. */
    posted: URLSearchParams;
    /** The page's address as posted: its path, its parameters (`?next=`), its route parameters. */
    url: URL;
    params: Readonly<Record<string, string>>;
    ask: AskApi;
  }): Promise<FormOutcome>;
}

/** Draws the page a form was posted from again with the form's answer; false when it could not. */
export type DrawAnswer = (
  request: FastifyRequest,
  reply: FastifyReply,
  answer: FormAnswer,
) => Promise<boolean>;

/** A browser's form is small: the largest is a new ticket's description. */
const formBodyLimit = 256 * 1024;

/** The API's message in an answer that refused, or a general one. */
export function messageOf(answer: LightMyRequestResponse): string {
  try {
    const body = answer.json<{ message?: unknown }>();
    if (typeof body?.message === "string" && body.message) return body.message;
  } catch {
    // Not JSON: the general message below.
  }
  return "Something went wrong. Please try again.";
}

/** The API's error code in an answer that refused ("INVALID_TOKEN", "registration_failed"), if it says one. */
export function codeOf(answer: LightMyRequestResponse): string | undefined {
  try {
    const body = answer.json<{ code?: unknown }>();
    return typeof body?.code === "string" && body.code ? body.code : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The fields checked as the app checks the same form before sending it (react-hook-form with the shared
 * schema): what it would send (names trimmed, defaults filled in), or what is wrong, by field, in the
 * words it shows under each (the first message of each field).
 */
export function checkFields<Schema extends z.ZodType>(
  schema: Schema,
  fields: FormFields,
): { data: z.output<Schema> } | { fieldErrors: Record<string, string> } {
  const result = schema.safeParse(fields);
  if (result.success) return { data: result.data };
  const fieldErrors: Record<string, string> = {};
  for (const issue of result.error.issues) fieldErrors[String(issue.path[0] ?? "")] ??= issue.message;
  return { fieldErrors };
}

/**
 * The API's message for each field it refused, by the field's name in the form: its 400's details
 * ({ path, message }, error-handler.ts), the path joined with dots ("customFields.cf_…"), the first of each.
 */
export function fieldErrorsOf(answer: LightMyRequestResponse): Record<string, string> | undefined {
  if (answer.statusCode !== 400) return undefined;
  let details: unknown;
  try {
    details = answer.json<{ details?: unknown }>()?.details;
  } catch {
    return undefined;
  }
  if (!Array.isArray(details)) return undefined;
  const errors: Record<string, string> = {};
  for (const issue of details as { path?: unknown; message?: unknown }[]) {
    if (!Array.isArray(issue?.path) || issue.path.length === 0 || typeof issue.message !== "string") continue;
    errors[issue.path.join(".")] ??= issue.message;
  }
  return Object.keys(errors).length > 0 ? errors : undefined;
}

/** An API answer that refused, as a form's outcome: its status, its message, its fields' messages. */
export function refusedWith(answer: LightMyRequestResponse): FormOutcome {
  const fieldErrors = fieldErrorsOf(answer);
  return { status: answer.statusCode, message: messageOf(answer), ...(fieldErrors ? { fieldErrors } : {}) };
}

/** The Set-Cookie headers of an API answer, to be passed on to the browser. */
export function cookiesOf(answer: LightMyRequestResponse): string[] {
  const header = answer.headers["set-cookie"];
  if (header === undefined) return [];
  return Array.isArray(header) ? header : [String(header)];
}

/**
 * The forms' routes: POST to the page's own address. The same-origin check (origins.ts) runs first, as
 * for every change; the API the form is sent to then checks everything else.
 */
export async function registerPageForms(
  app: FastifyInstance,
  { forms, drawAnswer }: { forms: readonly PageForm[]; drawAnswer: DrawAnswer },
) {
  await app.register(async (scope) => {
    scope.addContentTypeParser(
      "application/x-www-form-urlencoded",
      { parseAs: "string", bodyLimit: formBodyLimit },
      (_request, body, done) => done(null, new URLSearchParams(String(body))),
    );
    const formsByPath = new Map<string, PageForm[]>();
    for (const form of forms) formsByPath.set(form.path, [...(formsByPath.get(form.path) ?? []), form]);
    for (const [path, formsOfPage] of formsByPath) {
      scope.post(path, async (request, reply) => {
        const posted = request.body instanceof URLSearchParams ? request.body : new URLSearchParams();
        const fields: FormFields = Object.fromEntries(
          [...posted.keys()].map((name) => [name, posted.get(name)!]),
        );
        // The form named by its hidden field; a page with one form needs none (the sign-in page).
        const form =
          formsOfPage.find((candidate) => candidate.name === fields[formNameField]) ??
          (formsOfPage.length === 1 ? formsOfPage[0] : undefined);
        if (!form) {
          return reply
            .status(404)
            .send({ code: "not_found", message: `No form ${fields[formNameField] ?? ""} on ${path}`.trim() });
        }
        const url = new URL(request.url, "http://localhost");
        const ask: AskApi = (method, apiUrl, body, options) =>
          askOwnApi(app, request, { method, url: apiUrl, body, ...options });
        const outcome = await form.submit({
          fields,
          posted,
          url,
          params: request.params as Record<string, string>,
          ask,
        });
        if ("redirect" in outcome) {
          for (const cookie of outcome.cookies ?? []) void reply.header("set-cookie", cookie);
          return reply.header("cache-control", "no-store").redirect(outcome.redirect, 303);
        }
        for (const cookie of outcome.cookies ?? []) void reply.header("set-cookie", cookie);
        const answer: FormAnswer = {
          form: form.name,
          status: outcome.status,
          message: outcome.message,
          ...valuesOf(posted, new Set([...(form.secretFields ?? []), formNameField])),
          ...(outcome.step ? { step: outcome.step } : {}),
          ...(outcome.code ? { code: outcome.code } : {}),
          ...(outcome.fieldErrors ? { fieldErrors: outcome.fieldErrors } : {}),
        };
        if (await drawAnswer(request, reply, answer)) return reply;
        return sendPlainAnswer(reply, answer, request.url);
      });
    }
  });
}

/** The fields to write back into the page, never one of `left`: the first of each, and every one of a list. */
function valuesOf(posted: URLSearchParams, left: ReadonlySet<string>): Pick<FormAnswer, "values" | "lists"> {
  const names = [...new Set(posted.keys())].filter((name) => !left.has(name));
  const values = Object.fromEntries(names.map((name) => [name, posted.get(name) ?? ""]));
  const lists = Object.fromEntries(
    names.flatMap((name) => (posted.getAll(name).length > 1 ? [[name, posted.getAll(name)]] : [])),
  );
  return { values, ...(Object.keys(lists).length > 0 ? { lists } : {}) };
}

/** When the page cannot be drawn (its renderer not built, say): the message, and the way back. */
function sendPlainAnswer(reply: FastifyReply, answer: FormAnswer, url: string) {
  const escaped = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);
  // What went wrong with each field, when that is the answer; a success (a mail sent) is news, not an alert.
  const lines = [answer.message, ...Object.values(answer.fieldErrors ?? {})].filter(Boolean);
  const said = lines
    .map((line) => `<p role="${answer.status < 400 ? "status" : "alert"}">${escaped(line)}</p>`)
    .join("");
  return reply
    .status(answer.status)
    .header("content-type", "text/html; charset=utf-8")
    .header("cache-control", "no-store")
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Helpdesk</title></head>` +
        `<body><main>${said}<p><a href="${escaped(url)}">Back</a></p></main></body></html>`,
    );
}

import { createHash } from "node:crypto";
import http from "node:http";
import { Readable } from "node:stream";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { UserRow } from "#server/db/schema/index.ts";
import { attachmentChunks, attachments, tickets } from "#server/db/schema/index.ts";
import { insertTicket, signedInAs } from "#server/test/factories.ts";
import { makePng } from "#server/test/files.ts";
import { createTestApp, request, type TestApp, testBaseURL } from "#server/test/test-app.ts";
import { deleteAbandonedUploads } from "./attachment-cleanup.ts";
import { chunkSize } from "./upload-attachment.service.ts";

// Decision 012: files checked on their content as they stream into the database, served back with
// the ticket's visibility rule and headers that never let a browser run them.

const maxBytes = 1024 * 1024;
let t: TestApp;
type Person = { user: UserRow; cookie: string };
let creator: Person;
let otherUser: Person;
let technician: Person;

beforeAll(async () => {
  t = await createTestApp({ attachmentMaxBytes: maxBytes });
  creator = await signedInAs(t.app, t.database.db, "user");
  otherUser = await signedInAs(t.app, t.database.db, "user");
  technician = await signedInAs(t.app, t.database.db, "technician");
});
afterAll(() => t.close());
beforeEach(async () => {
  await t.database.db.delete(attachments);
  await t.database.db.delete(tickets);
});

const upload = (cookie: string | null, fileName: string, body: Buffer | string) =>
  request(t.app, {
    method: "POST",
    url: `/api/attachments?fileName=${encodeURIComponent(fileName)}`,
    cookie,
    headers: { "content-type": "application/octet-stream" },
    payload: body,
  });

const sha256 = (bytes: Buffer) => createHash("sha256").update(bytes).digest("hex");
const rowCounts = async () => ({
  attachments: (await t.database.db.select().from(attachments)).length,
  chunks: (await t.database.db.select().from(attachmentChunks)).length,
});

async function commentWithFile(
  author: Person,
  ticketId: string,
  file: Buffer,
  options: { isInternal?: boolean } = {},
) {
  const uploaded = await upload(author.cookie, "screenshot.png", file);
  expect(uploaded.statusCode, uploaded.body).toBe(201);
  const comment = await request(t.app, {
    method: "POST",
    url: `/api/tickets/${ticketId}/comments`,
    cookie: author.cookie,
    payload: { message: "See the screenshot", attachmentIds: [uploaded.json().id], ...options },
  });
  expect(comment.statusCode, comment.body).toBe(201);
  return comment.json().attachments[0] as { id: string; url: string; previewUrl: string };
}

describe("uploading", () => {
  it("streams a file into chunk rows and gives it back byte for byte, with safe headers", async () => {
    const png = Buffer.concat([makePng(400, 300), Buffer.alloc(chunkSize)]); // spans two chunk rows
    const uploaded = await upload(creator.cookie, "Überweisung 1.png", png);
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect(uploaded.json()).toMatchObject({
      fileName: "Überweisung 1.png",
      contentType: "image/png",
      size: png.length,
      isImage: true,
    });
    expect((await rowCounts()).chunks).toBe(2);
    const created = await request(t.app, {
      method: "POST",
      url: "/api/tickets",
      cookie: creator.cookie,
      payload: {
        title: "Bank form broken",
        description: "See attached",
        category: "Software",
        priority: "Low",
        department: "Finance",
        floor: "1",
        officeNumber: "101",
        attachmentIds: [uploaded.json().id],
      },
    });
    expect(created.statusCode, created.body).toBe(201);
    const activity = await request(t.app, {
      method: "GET",
      url: `/api/tickets/${created.json().ticketId}/activity`,
      cookie: creator.cookie,
    });
    const [file] = activity.json().attachments;
    expect(file).toMatchObject({ id: uploaded.json().id, url: `/api/attachments/${uploaded.json().id}` });

    const download = await request(t.app, { method: "GET", url: file.url, cookie: technician.cookie });
    expect(download.statusCode).toBe(200);
    expect(sha256(download.rawPayload)).toBe(sha256(png));
    expect(download.headers).toMatchObject({
      "content-type": "image/png",
      "content-length": String(png.length),
      "content-disposition": `attachment; filename="_berweisung 1.png"; filename*=UTF-8''%C3%9Cberweisung%201.png`,
      "x-content-type-options": "nosniff",
      "content-security-policy": "default-src 'none'; sandbox",
      "cache-control": "private, max-age=31536000, immutable",
    });
    const preview = await request(t.app, { method: "GET", url: file.previewUrl, cookie: creator.cookie });
    expect(preview.statusCode).toBe(200);
    expect(preview.headers["content-disposition"]).toMatch(/^inline; /);
    expect(sha256(preview.rawPayload)).toBe(sha256(png));
  });

  it("serves text as a download only, with no preview", async () => {
    const ticket = await insertTicket(t.database.db, { createdBy: creator.user.id });
    const uploaded = await upload(creator.cookie, "event.log", "12:00 disk full\n12:01 retry\n");
    expect(uploaded.statusCode, uploaded.body).toBe(201);
    expect(uploaded.json()).toMatchObject({ contentType: "text/plain; charset=utf-8", previewUrl: null });
    await request(t.app, {
      method: "POST",
      url: `/api/tickets/${ticket.id}/comments`,
      cookie: creator.cookie,
      payload: { message: "Log attached", attachmentIds: [uploaded.json().id] },
    });
    const download = await request(t.app, {
      method: "GET",
      url: uploaded.json().url,
      cookie: creator.cookie,
    });
    expect(download.headers["content-disposition"]).toBe(
      `attachment; filename="event.log"; filename*=UTF-8''event.log`,
    );
    expect(download.body).toBe("12:00 disk full\n12:01 retry\n");
    const preview = await request(t.app, {
      method: "GET",
      url: `${uploaded.json().url}/preview`,
      cookie: creator.cookie,
    });
    expect(preview.statusCode).toBe(404);
  });

  it("refuses a file over the limit with 413 and keeps nothing of it", async () => {
    const response = await upload(
      creator.cookie,
      "big.png",
      Buffer.concat([makePng(2, 2), Buffer.alloc(maxBytes)]),
    );
    expect(response.statusCode).toBe(413);
    expect(response.json().message).toBe("The file is larger than 1 MB, the most one attachment may be.");
    expect(await rowCounts()).toEqual({ attachments: 0, chunks: 0 });
  });

  it.each([
    [
      "an HTML page renamed .png",
      "cat.png",
      "<!doctype html><script>alert(1)</script>",
      /does not match its name/,
    ],
    [
      "a Windows program renamed .png",
      "cat.png",
      Buffer.from("MZ\x90\x00\x03\x00\x00\x00\x04\x00\x00\x00\xff\xff\x00\x00", "latin1"),
      /not a type that can be attached/,
    ],
    [
      "an SVG saved as .txt",
      "notes.txt",
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      /not a type/,
    ],
    ["a PNG renamed .pdf", "report.pdf", makePng(2, 2), /not a .pdf file/],
    [
      "text that is not UTF-8",
      "notes.txt",
      Buffer.from([0x68, 0x69, 0xff, 0xfe, 0x0a]),
      /not plain UTF-8 text/,
    ],
    ["an .exe", "setup.exe", Buffer.from("MZ\x90\x00", "latin1"), /setup.exe cannot be attached/],
    ["an .svg", "logo.svg", "<svg></svg>", /cannot be attached/],
  ])("refuses %s with a message and keeps nothing", async (_what, name, body, message) => {
    const response = await upload(creator.cookie, name, body);
    expect(response.statusCode).toBe(400);
    expect(response.json().message).toMatch(message);
    expect(await rowCounts()).toEqual({ attachments: 0, chunks: 0 });
  });

  it("refuses an empty file and an upload from someone signed out", async () => {
    expect((await upload(creator.cookie, "empty.txt", "")).statusCode).toBe(400);
    expect((await upload(null, "a.txt", "hello")).statusCode).toBe(401);
    expect(await rowCounts()).toEqual({ attachments: 0, chunks: 0 });
  });

  it("links only the uploader's own pending files, and then never again", async () => {
    const ticket = await insertTicket(t.database.db, { createdBy: creator.user.id });
    const theirs = await upload(otherUser.cookie, "a.txt", "hello");
    const comment = (attachmentIds: string[]) =>
      request(t.app, {
        method: "POST",
        url: `/api/tickets/${ticket.id}/comments`,
        cookie: creator.cookie,
        payload: { message: "Here", attachmentIds },
      });
    const refused = await comment([theirs.json().id]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toMatch(/not an upload of yours/);
    const mine = await upload(creator.cookie, "b.txt", "hello");
    expect((await comment([mine.json().id])).statusCode).toBe(201);
    expect((await comment([mine.json().id])).statusCode).toBe(400);
    const activity = await request(t.app, {
      method: "GET",
      url: `/api/tickets/${ticket.id}/activity`,
      cookie: creator.cookie,
    });
    expect(activity.json().comments).toHaveLength(1);
  });

  it("deletes uploads never sent within a day", async () => {
    await upload(creator.cookie, "a.txt", "hello");
    expect(await deleteAbandonedUploads(t.database.db, new Date())).toBe(0);
    expect(await deleteAbandonedUploads(t.database.db, new Date(Date.now() + 25 * 3600_000))).toBe(1);
    expect(await rowCounts()).toEqual({ attachments: 0, chunks: 0 });
  });
});

describe("downloading", () => {
  it("answers 404 for a file of a ticket the caller may not see", async () => {
    const ticket = await insertTicket(t.database.db, { createdBy: creator.user.id });
    const file = await commentWithFile(creator, ticket.id, makePng(4, 4));
    for (const url of [file.url, file.previewUrl]) {
      const response = await request(t.app, { method: "GET", url, cookie: otherUser.cookie });
      expect(response.statusCode).toBe(404);
      expect(response.json().message).toBe(`Attachment ${file.id} not found`);
    }
    expect((await request(t.app, { method: "GET", url: file.url, cookie: null })).statusCode).toBe(401);
  });

  it("answers 404 to the ticket's creator for an internal note's file; staff download it", async () => {
    const ticket = await insertTicket(t.database.db, { createdBy: creator.user.id });
    const file = await commentWithFile(technician, ticket.id, makePng(4, 4), { isInternal: true });
    expect((await request(t.app, { method: "GET", url: file.url, cookie: creator.cookie })).statusCode).toBe(
      404,
    );
    expect(
      (await request(t.app, { method: "GET", url: file.url, cookie: technician.cookie })).statusCode,
    ).toBe(200);
    const activity = await request(t.app, {
      method: "GET",
      url: `/api/tickets/${ticket.id}/activity`,
      cookie: creator.cookie,
    });
    expect(activity.body).not.toContain(file.id);
  });
});

describe("uploads over a real connection", () => {
  let baseUrl: string;
  beforeAll(async () => {
    baseUrl = await t.app.listen({ port: 0, host: "127.0.0.1" });
  });

  it("is refused mid-stream without filling memory or leaving a partial row", async () => {
    const total = 100 * 1024 * 1024;
    const piece = Buffer.alloc(64 * 1024, 0x61); // "aaaa…": valid text, so only the size stops it
    let sent = 0;
    const body = new Readable({
      read() {
        if (sent >= total) return this.push(null);
        sent += piece.length;
        this.push(piece);
      },
    });
    global.gc?.();
    const before = process.memoryUsage();
    let peakRss = before.rss;
    const sampler = setInterval(() => {
      peakRss = Math.max(peakRss, process.memoryUsage().rss);
    }, 20);
    const { status, text } = await new Promise<{ status: number; text: string }>((resolve, reject) => {
      const req = http.request(
        `${baseUrl}/api/attachments?fileName=huge.log`,
        {
          method: "POST",
          headers: {
            origin: testBaseURL,
            cookie: creator.cookie,
            "content-type": "text/plain",
            "transfer-encoding": "chunked", // no Content-Length: only counting the stream can stop it
          },
        },
        (res) => {
          let answer = "";
          res.on("data", (data) => {
            answer += data;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, text: answer }));
        },
      );
      // The server closes the connection after answering; the rest of our body then has nowhere to go.
      req.on("error", (error: NodeJS.ErrnoException) => {
        if (error.code !== "EPIPE" && error.code !== "ECONNRESET") reject(error);
      });
      body.pipe(req);
    });
    clearInterval(sampler);
    body.destroy();
    expect(status).toBe(413);
    expect(JSON.parse(text).message).toMatch(/larger than 1 MB/);
    expect(sent).toBeLessThan(total);
    expect(peakRss - before.rss).toBeLessThan(40 * 1024 * 1024);
    expect(await rowCounts()).toEqual({ attachments: 0, chunks: 0 });
  });

  it("leaves no row when the browser gives up halfway through", async () => {
    const req = http.request(`${baseUrl}/api/attachments?fileName=half.log`, {
      method: "POST",
      headers: { origin: testBaseURL, cookie: creator.cookie, "content-length": String(maxBytes) },
    });
    req.on("error", () => {});
    req.write(Buffer.alloc(3 * chunkSize, 0x62));
    await new Promise((resolve) => setTimeout(resolve, 300));
    req.destroy();
    const deadline = Date.now() + 5000;
    while (Date.now() < deadline && (await rowCounts()).attachments > 0) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    expect(await rowCounts()).toEqual({ attachments: 0, chunks: 0 });
  });
});

import { createHash } from "node:crypto";
import type { Readable } from "node:stream";
import type { ServiceContext } from "#server/context.ts";
import { AppError, forbidden, ruleViolation, validationFailed } from "#server/errors.ts";
import { newAttachmentId } from "#server/ids.ts";
import {
  type Attachment,
  formatFileSize,
  maxAttachmentsPerItem,
} from "#shared/attachments/attachment.schemas.ts";
import {
  allowedTypesDescription,
  detectKind,
  extensionOf,
  type FileKind,
  fileKinds,
  hasControlBytes,
  kindForFileName,
  looksLikeMarkup,
  sniffLength,
} from "#shared/attachments/attachment-types.ts";
import { can } from "#shared/permissions.ts";
import { toAttachmentDto } from "./attachment.presenter.ts";
import {
  completeUpload,
  countUnlinkedOf,
  deleteAttachment,
  insertAttachment,
  insertChunk,
} from "./attachment.queries.ts";

/** Bytes per chunk row: big enough for few round trips, small enough that nothing holds a whole file. */
export const chunkSize = 256 * 1024;
/** Uploads waiting to be linked, per person: enough for two full comments, not a way to fill the disk. */
const maxUnlinkedPerPerson = maxAttachmentsPerItem * 2;

export interface UploadLimits {
  /** ATTACHMENT_MAX_BYTES. */
  maxBytes: number;
}

const fileTooLarge = (maxBytes: number) =>
  new AppError(
    "payload_too_large",
    `The file is larger than ${formatFileSize(maxBytes)}, the most one attachment may be.`,
  );

const notAllowedType = (fileName: string) =>
  validationFailed(`${fileName} cannot be attached. You can attach ${allowedTypesDescription}.`);
const disguised = (fileName: string, kind: FileKind | null) =>
  validationFailed(
    kind === null
      ? `The content of ${fileName} is not a type that can be attached. You can attach ${allowedTypesDescription}.`
      : `The content of ${fileName} does not match its name (it is not a .${extensionOf(fileName)} file).`,
  );

/**
 * Checks text content as it streams: valid UTF-8 throughout, no control characters, and no markup at
 * the start (HTML or SVG saved as .txt).
 */
function createTextCheck(fileName: string) {
  const decoder = new TextDecoder("utf-8", { fatal: true, ignoreBOM: false });
  let isStart = true;
  const refuse = () =>
    validationFailed(`${fileName} is not plain UTF-8 text, so it cannot be attached as a text file.`);
  return {
    push(bytes: Uint8Array) {
      if (hasControlBytes(bytes)) throw refuse();
      let text: string;
      try {
        text = decoder.decode(bytes, { stream: true });
      } catch {
        throw refuse();
      }
      if (isStart && text.trim().length > 0) {
        isStart = false;
        if (looksLikeMarkup(text)) throw disguised(fileName, null);
      }
    },
    end() {
      try {
        decoder.decode();
      } catch {
        throw refuse();
      }
    },
  };
}

/**
 * Streams the request body into chunk rows while counting and hashing it; refuses as soon as the limit
 * is passed or the content is not what the name says, and then deletes what it wrote (no partial row).
 * Deliberately not one transaction: a slow upload would hold a pooled connection (PostgreSQL) or the only
 * one (PGlite) for its whole duration; the row stays "uploading", invisible, until complete.
 */
export async function uploadAttachment(
  ctx: ServiceContext,
  input: { fileName: string; body: Readable | undefined; declaredLength: number | undefined },
  limits: UploadLimits,
): Promise<Attachment> {
  if (!can.uploadAttachment(ctx.actor)) throw forbidden("You do not have permission to attach files");
  const { fileName, body } = input;
  const expected = kindForFileName(fileName);
  if (!expected) throw notAllowedType(fileName);
  if (input.declaredLength !== undefined && input.declaredLength > limits.maxBytes)
    throw fileTooLarge(limits.maxBytes);
  if (!body || input.declaredLength === 0) throw validationFailed(`${fileName} is empty.`);
  if ((await countUnlinkedOf(ctx.db, ctx.actor.id)) >= maxUnlinkedPerPerson)
    throw ruleViolation(
      `You have ${maxUnlinkedPerPerson} files waiting to be sent. Send or remove some of them first.`,
    );

  const id = newAttachmentId();
  await insertAttachment(ctx.db, {
    id,
    uploadedBy: ctx.actor.id,
    fileName,
    contentType: "application/octet-stream",
    status: "uploading",
  });
  try {
    const hash = createHash("sha256");
    const textCheck = expected === "text" ? createTextCheck(fileName) : null;
    let size = 0;
    let seq = 0;
    let head: Buffer | null = Buffer.alloc(0);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    const checkHead = (bytes: Buffer) => {
      const detected = detectKind(bytes);
      if (detected !== expected) throw disguised(fileName, detected);
    };
    // destroyOnReturn false: leaving the loop early (limit, bad content) must not destroy the socket,
    // or the 413/400 answer would never reach the browser.
    for await (const piece of body.iterator({ destroyOnReturn: false }) as AsyncIterable<Buffer>) {
      size += piece.length;
      if (size > limits.maxBytes) throw fileTooLarge(limits.maxBytes);
      hash.update(piece);
      if (head) {
        head = Buffer.concat([head, piece]);
        if (head.length >= sniffLength) {
          checkHead(head);
          head = null;
        }
      }
      textCheck?.push(piece);
      pending.push(piece);
      pendingBytes += piece.length;
      while (pendingBytes >= chunkSize) {
        const all = Buffer.concat(pending);
        await insertChunk(ctx.db, id, seq++, all.subarray(0, chunkSize));
        pending = [all.subarray(chunkSize)];
        pendingBytes = all.length - chunkSize;
      }
    }
    if (size === 0) throw validationFailed(`${fileName} is empty.`);
    if (head) checkHead(head);
    textCheck?.end();
    if (pendingBytes > 0) await insertChunk(ctx.db, id, seq, Buffer.concat(pending));
    const rule = fileKinds[expected];
    const row = await completeUpload(ctx.db, id, {
      size,
      sha256: hash.digest("hex"),
      contentType: rule.extensions[extensionOf(fileName)] ?? "application/octet-stream",
      isImage: rule.isImage,
    });
    if (!row) throw new Error(`Attachment ${id} vanished while uploading`);
    return toAttachmentDto(row);
  } catch (error) {
    await deleteAttachment(ctx.db, id);
    throw error;
  }
}

import { describe, expect, it } from "vitest";
import { formatFileSize } from "./attachment.schemas.ts";
import { detectKind, kindForFileName, looksLikeMarkup } from "./attachment-types.ts";

const bytes = (...values: (number | string)[]) =>
  new Uint8Array(values.flatMap((v) => (typeof v === "string" ? [...v].map((c) => c.charCodeAt(0)) : [v])));

describe("the attachment type allowlist", () => {
  it("reads the kind a file's name promises, case-insensitively; unknown or missing extensions have none", () => {
    expect(kindForFileName("Screen Shot.PNG")).toBe("png");
    expect(kindForFileName("photo.jpeg")).toBe("jpeg");
    expect(kindForFileName("budget.xlsx")).toBe("zip");
    expect(kindForFileName("server.log")).toBe("text");
    expect(kindForFileName("setup.exe")).toBeNull();
    expect(kindForFileName("logo.svg")).toBeNull();
    expect(kindForFileName("page.html")).toBeNull();
    expect(kindForFileName("README")).toBeNull();
    expect(kindForFileName(".png")).toBeNull();
  });

  it("recognises each binary kind by its first bytes", () => {
    expect(detectKind(bytes(0x89, "PNG", 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13))).toBe("png");
    expect(detectKind(bytes(0xff, 0xd8, 0xff, 0xe0))).toBe("jpeg");
    expect(detectKind(bytes("GIF89a"))).toBe("gif");
    expect(detectKind(bytes("RIFF", 0, 0, 0, 0, "WEBPVP8 "))).toBe("webp");
    expect(detectKind(bytes("%PDF-1.7\n"))).toBe("pdf");
    expect(detectKind(bytes("PK", 3, 4, 20, 0))).toBe("zip");
    expect(detectKind(bytes("Hello\tworld\r\n"))).toBe("text");
  });

  it("recognises no kind in a program or other binary data", () => {
    expect(detectKind(bytes("MZ", 0x90, 0, 3, 0))).toBeNull();
    expect(detectKind(bytes(0x7f, "ELF", 2, 1, 1))).toBeNull();
    expect(detectKind(bytes("RIFF", 0, 0, 0, 0, "WAVEfmt "))).toBeNull();
  });

  it("treats HTML, SVG and XML at the start of a text file as markup", () => {
    expect(looksLikeMarkup("\uFEFF  <!DOCTYPE html><p>")).toBe(true);
    expect(looksLikeMarkup("<svg xmlns='http://www.w3.org/2000/svg'>")).toBe(true);
    expect(looksLikeMarkup('<?xml version="1.0"?>')).toBe(true);
    expect(looksLikeMarkup("error at <main> line 4")).toBe(false);
  });

  it("writes sizes as people read them", () => {
    expect(formatFileSize(1)).toBe("1 byte");
    expect(formatFileSize(56)).toBe("56 bytes");
    expect(formatFileSize(812 * 1024)).toBe("812 KB");
    expect(formatFileSize(10 * 1024 * 1024)).toBe("10 MB");
    expect(formatFileSize(2.46 * 1024 * 1024)).toBe("2.5 MB");
  });
});

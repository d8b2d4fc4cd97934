import { describe, expect, it } from "vitest";
import { csvFilename, csvStream } from "./csv-stream.ts";

const numbers = (total: number) => (last: number | undefined, limit: number) => {
  const from = (last ?? 0) + 1;
  return Promise.resolve(
    Array.from({ length: Math.max(0, Math.min(limit, total - from + 1)) }, (_, i) => from + i),
  );
};

async function collect(chunks: AsyncIterable<string>) {
  const all: string[] = [];
  for await (const chunk of chunks) all.push(chunk);
  return all;
}

describe("csvStream", () => {
  it("writes the BOM and header, then one chunk per page, until a short page", async () => {
    const chunks = await collect(
      await csvStream({ header: ["n"], readPage: numbers(5), toCells: (n) => [String(n)], pageSize: 2 }),
    );
    expect(chunks).toEqual(["\uFEFFn\r\n", "1\r\n2\r\n", "3\r\n4\r\n", "5\r\n"]);
  });

  it("stops after a full last page when the next one is empty", async () => {
    const chunks = await collect(
      await csvStream({ header: ["n"], readPage: numbers(4), toCells: (n) => [String(n)], pageSize: 2 }),
    );
    expect(chunks.join("")).toBe("\uFEFFn\r\n1\r\n2\r\n3\r\n4\r\n");
  });

  it("writes only the header when nothing matches", async () => {
    const chunks = await collect(
      await csvStream({ header: ["a", "b"], readPage: numbers(0), toCells: (n) => [String(n)] }),
    );
    expect(chunks).toEqual(["\uFEFFa,b\r\n"]);
  });

  it("fails before any text when the first page cannot be read (the route can still answer an error)", async () => {
    await expect(
      csvStream({
        header: ["n"],
        readPage: () => Promise.reject(new Error("no database")),
        toCells: () => [],
      }),
    ).rejects.toThrow("no database");
  });

  it("reads the next page only when asked for more, and fails the stream when a later page fails", async () => {
    const reads: Array<number | undefined> = [];
    const chunks = await csvStream<number>({
      header: ["n"],
      readPage: (last, limit) => {
        reads.push(last);
        return last === undefined ? numbers(10)(last, limit) : Promise.reject(new Error("lost the database"));
      },
      toCells: (n) => [String(n)],
      pageSize: 2,
    });
    expect(reads).toEqual([undefined]);
    expect((await chunks.next()).value).toBe("\uFEFFn\r\n");
    expect((await chunks.next()).value).toBe("1\r\n2\r\n");
    expect(reads).toEqual([undefined]);
    await expect(chunks.next()).rejects.toThrow("lost the database");
  });
});

describe("csvFilename", () => {
  it("names the file after the UTC day", () => {
    expect(csvFilename("tickets", new Date("2026-11-23T23:30:00-05:00"))).toBe("tickets-2026-11-24.csv");
  });
});

import { is, Param, Placeholder, sql } from "drizzle-orm";
import { nameAfterText } from "./prepared.ts";

/** What drizzle prepares (a select, or any query builder with `prepare`), and what it prepared. */
interface Preparable<R> {
  prepare(name: string): Prepared<R>;
}
interface Prepared<R> {
  execute(values?: Record<string, unknown>): Promise<R>;
}

/**
 * A value of the request in a statement built once per shape: a placeholder named `name`, given its value
 * when the statement runs. It poses as a T so that the code that builds conditions (eq, sql`…`) takes it
 * where it takes the value; code that would compute something from the value (a Date's ISO text, a search
 * string's words) must not get one — a value computed at build time would be kept in the statement, which
 * prepareShape refuses.
 */
export function bound<T = string>(name: string): T {
  return sql.placeholder(name) as unknown as T;
}

/** The most shapes one database keeps; the callers' shapes are a few hundred at most, by construction. */
const maxShapes = 1_000;

interface Shape {
  prepared: Prepared<unknown>;
  text: string;
}

// Per database (a pool, PGlite, or a test's own): a prepared query is bound to the client it was built on.
const shapesOf = new WeakMap<object, Map<string, Shape>>();

/**
 * Runs a query whose SQL text is built once per shape (decision 066). `shape` names what decides the text
 * — a role, a tab, which filters are present, an order, whether a cursor is given — and never a value;
 * `build` makes the query with `bound(name)` wherever a value goes, and `values` gives them by name for
 * this run. The first run of a shape builds, checks and names the statement (a named prepared statement
 * on PostgreSQL, nameAfterText; unnamed on PGlite); later runs bind the values and execute it, without
 * drizzle building anything. The result rows are mapped as drizzle maps them.
 */
export function runShaped<R>(
  db: object,
  shape: string,
  build: () => Preparable<R>,
  values: Record<string, unknown>,
): Promise<R> {
  let shapes = shapesOf.get(db);
  if (!shapes) {
    shapes = new Map();
    shapesOf.set(db, shapes);
  }
  let known = shapes.get(shape);
  if (!known) {
    known = prepareShape(shape, build());
    // A bound on memory whatever a caller does; the oldest shape goes first (a Map keeps insertion order).
    if (shapes.size >= maxShapes) shapes.delete(shapes.keys().next().value as string);
    shapes.set(shape, known);
  }
  return (known.prepared as Prepared<R>).execute(values);
}

/** What drizzle keeps of a prepared query: its SQL text and its parameters (drizzle-orm 0.45, both drivers). */
interface PreparedParts {
  queryString?: unknown;
  params?: unknown;
}

const isPlaceholder = (param: unknown) =>
  is(param, Placeholder) || (is(param, Param) && is((param as Param).value, Placeholder));

function prepareShape(shape: string, query: Preparable<unknown>): Shape {
  const prepared = query.prepare("");
  const { queryString, params } = prepared as unknown as PreparedParts;
  if (typeof queryString !== "string" || !Array.isArray(params)) {
    throw new Error(`Statement shape ${shape}: drizzle's prepared query has no text or parameters to check`);
  }
  // A parameter that is a value, not a placeholder, would be kept for every later run of the shape.
  const fixed = params.findIndex((param) => !isPlaceholder(param));
  if (fixed !== -1) {
    throw new Error(`Statement shape ${shape}: parameter $${fixed + 1} is a value, not bound(…)`);
  }
  return { prepared: nameAfterText(prepared), text: queryString };
}

/** The shapes built on this database and their SQL texts (tests check that no value is in either). */
export function shapesBuiltOn(db: object): Array<{ shape: string; text: string }> {
  return [...(shapesOf.get(db) ?? new Map<string, Shape>())].map(([shape, { text }]) => ({ shape, text }));
}

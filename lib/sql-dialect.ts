import "server-only";
import type { DatabaseKind } from "@/lib/config";
import { Prisma } from "@/lib/generated/prisma/client";
import { getApp } from "@/lib/running-app";

// The few SQL phrases that differ between SQLite and Postgres, for the raw statements of lib/ (the
// overview's cards, the grid, the growth reads, the digests, /metrics). Everything else in those
// statements is written once, in SQL both accept: quoted identifiers ("Run"."linkId"), TRUE and
// FALSE, an alias on every subquery in FROM, CAST(… AS INTEGER) on a bound number whose type the
// statement does not fix, and `AS MATERIALIZED` common table expressions.
//
// Values come back differently too: a JSON aggregate is text on SQLite and parsed on Postgres
// (jsonValue reads both), a COUNT is a bigint on Postgres and an AVG or SUM of integers a Decimal
// (Number() reads every one), a timestamp a Date on Postgres and text or a number on SQLite
// (new Date() reads every one).

/** The database of the running app. */
export function dialect(): DatabaseKind {
  return getApp().database;
}

const pick = (sqlite: Prisma.Sql, postgres: Prisma.Sql): Prisma.Sql => (dialect() === "postgres" ? postgres : sqlite);

/** A JSON array of `value` over the rows of a group (ordered as the rows come: order them in a subquery). */
export function jsonGroupArray(value: Prisma.Sql): Prisma.Sql {
  return pick(Prisma.sql`json_group_array(${value})`, Prisma.sql`COALESCE(json_agg(${value}), '[]'::json)`);
}

/** A JSON array of the values given, in order. */
export function jsonArray(values: Prisma.Sql[]): Prisma.Sql {
  const list = Prisma.join(values);
  return pick(Prisma.sql`json_array(${list})`, Prisma.sql`json_build_array(${list})`);
}

/** A JSON object of the pairs given (key, value, key, value, …), keys as SQL strings. */
export function jsonObject(pairs: Prisma.Sql[]): Prisma.Sql {
  const list = Prisma.join(pairs);
  return pick(Prisma.sql`json_object(${list})`, Prisma.sql`json_build_object(${list})`);
}

/** True when the JSON array in `column` holds the string `value`. */
export function jsonArrayHas(column: Prisma.Sql, value: string): Prisma.Sql {
  return pick(
    Prisma.sql`EXISTS (SELECT 1 FROM json_each(${column}) AS "element" WHERE "element"."value" = ${value})`,
    Prisma.sql`(${column})::jsonb @> jsonb_build_array(CAST(${value} AS TEXT))`,
  );
}

/** The top-level `key` of the JSON object in `column`, as a number (null when missing). */
export function jsonNumber(column: Prisma.Sql, key: string): Prisma.Sql {
  return pick(
    Prisma.sql`json_extract(${column}, ${`$.${key}`})`,
    Prisma.sql`CAST((${column})::jsonb ->> CAST(${key} AS TEXT) AS DOUBLE PRECISION)`,
  );
}

/** A timestamp column in milliseconds since 1970. */
export function epochMs(column: Prisma.Sql): Prisma.Sql {
  return pick(
    Prisma.sql`(julianday(${column}) - 2440587.5) * 86400000.0`,
    Prisma.sql`(EXTRACT(EPOCH FROM ${column}) * 1000.0)`,
  );
}

/** The milliseconds between two timestamp columns. */
export function millisecondsBetween(from: Prisma.Sql, to: Prisma.Sql): Prisma.Sql {
  return pick(
    Prisma.sql`((julianday(${to}) - julianday(${from})) * 86400000.0)`,
    Prisma.sql`(EXTRACT(EPOCH FROM (${to} - ${from})) * 1000.0)`,
  );
}

/** A JSON value read from a raw row: text on SQLite, already parsed on Postgres; null stays null. */
export function jsonValue<T>(value: unknown): T {
  return (typeof value === "string" ? JSON.parse(value) : value) as T;
}

/** A bound timestamp compared with a DateTime column: ISO text as SQLite stores it, a Date on Postgres. */
export function timestampParam(at: Date | number): Prisma.Sql {
  const date = new Date(at);
  return dialect() === "postgres" ? Prisma.sql`${date}` : Prisma.sql`${date.toISOString().replace("Z", "+00:00")}`;
}

// ---- overview, grid, metrics

/**
 * A JSON column inside a JSON array or object: SQLite keeps JSON as text, which json() marks as
 * JSON so that it nests rather than being quoted as a string; Postgres's jsonb nests as it is.
 */
export function jsonNested(column: Prisma.Sql): Prisma.Sql {
  return pick(Prisma.sql`json(${column})`, column);
}

/**
 * A timestamp column inside a JSON array or object, as text that new Date() reads as the same
 * instant: SQLite's stored text as it is; on Postgres ISO text ending in "Z", since a timestamp
 * without time zone would come out with no zone at all and be read as local time.
 */
export function jsonTimestamp(column: Prisma.Sql): Prisma.Sql {
  return pick(column, Prisma.sql`to_char(${column}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);
}

/** Element `index` of a JSON array that jsonTimestamp wrote, to compare with a DateTime column. */
export function jsonTimestampAt(column: Prisma.Sql, index: number): Prisma.Sql {
  if (!Number.isSafeInteger(index) || index < 0) throw new Error(`not an array index: ${index}`);
  // The index is written into the statement: a literal path, as before, and on Postgres `->>`
  // has an integer and a text form, so a bound index of unknown type would be ambiguous.
  return pick(
    Prisma.sql`json_extract(${column}, ${Prisma.raw(`'$[${index}]'`)})`,
    // Postgres ignores the "Z" when it reads text as a timestamp without time zone: UTC, as stored.
    Prisma.sql`CAST((${column}) ->> ${Prisma.raw(String(index))} AS TIMESTAMP(3))`,
  );
}

/**
 * A column that SQLite is not to use an index of, as the unary + tells it (its planner would
 * otherwise pick a worse index); Postgres has no unary + for text, and plans on its own.
 */
export function unindexed(column: Prisma.Sql): Prisma.Sql {
  return pick(Prisma.sql`+${column}`, column);
}

// ---- runs, alerts, secrets

/** The top-level `key` of the JSON object in `column`, as text (null when missing). */
export function jsonText(column: Prisma.Sql, key: string): Prisma.Sql {
  return pick(
    Prisma.sql`json_extract(${column}, ${`$.${key}`})`,
    Prisma.sql`((${column})::jsonb ->> CAST(${key} AS TEXT))`,
  );
}

/**
 * The top-level `key` of the JSON object in `column` as SQLite's json_extract gives a flag: 1 for
 * true, 0 for false, a number as it is, null when missing. Postgres reads JSON booleans as
 * booleans, which it will not compare with 0 or 1.
 */
export function jsonFlag(column: Prisma.Sql, key: string): Prisma.Sql {
  const value = Prisma.sql`(${column})::jsonb -> CAST(${key} AS TEXT)`;
  return pick(
    Prisma.sql`json_extract(${column}, ${`$.${key}`})`,
    Prisma.sql`(CASE jsonb_typeof(${value})
      WHEN 'boolean' THEN (CASE WHEN (${value}) = 'true'::jsonb THEN 1 ELSE 0 END)
      WHEN 'number' THEN CAST((${value}) #>> '{}' AS DOUBLE PRECISION) END)`,
  );
}

/** Whether every value of a boolean column in a group is true: MIN of 0 and 1 on SQLite; Postgres has no MIN of booleans. */
export function allTrue(column: Prisma.Sql): Prisma.Sql {
  return pick(Prisma.sql`MIN(${column})`, Prisma.sql`bool_and(${column})`);
}

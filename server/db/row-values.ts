import type { AliasedExpression, ExpressionBuilder } from 'kysely';

/**
 * The constant values of an insert-select's row as its select list, each aliased by its column, so
 * that each column is named once: `.columns(columnsOf(row)).expression(q.select((eb) => rowValues(eb, row)))`.
 */
export const rowValues = <R extends object>(
  // biome-ignore lint/suspicious/noExplicitAny: the builder's tables do not matter to a constant
  eb: ExpressionBuilder<any, any>,
  row: R,
): AliasedExpression<unknown, keyof R & string>[] =>
  Object.entries(row).map(([column, value]) => eb.val(value).as(column as keyof R & string));

/** The columns of `row`, in the order rowValues lists its values. */
export const columnsOf = <R extends object>(row: R): (keyof R & string)[] =>
  Object.keys(row) as (keyof R & string)[];

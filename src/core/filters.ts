// The service's filter objects, as its public API takes them (the read lists' `filter` parameter
// and the metrics query's `filters`): packages/shared/src/interfaces/filters.ts `singleFilter`,
// with the same filter types, operators and messages.
import { z } from 'zod';

const OPERATORS = {
  datetime: ['>', '<', '>=', '<='],
  string: ['=', 'contains', 'does not contain', 'starts with', 'ends with'],
  stringOptions: ['any of', 'none of'],
  categoryOptions: ['any of', 'none of'],
  arrayOptions: ['any of', 'none of', 'all of'],
  number: ['=', '>', '<', '>=', '<='],
  booleanObject: ['=', '<>'],
  boolean: ['=', '<>'],
  null: ['is null', 'is not null'],
} as const;

const stringOperator = (matches: boolean) => (matches ? z.enum([...OPERATORS.string, 'matches']) : z.enum(OPERATORS.string));

/** One filter; `matches` adds the v2 observations list's `matches` operator to string filters. */
export function singleFilter(matches: boolean) {
  return z.discriminatedUnion('type', [
    z.object({ column: z.string(), operator: z.enum(OPERATORS.datetime), value: z.coerce.date(), type: z.literal('datetime') }),
    z.object({ column: z.string(), operator: stringOperator(matches), value: z.string(), type: z.literal('string') }),
    z.object({ column: z.string(), operator: z.enum(OPERATORS.number), value: z.number(), type: z.literal('number') }),
    z.object({ column: z.string(), operator: z.enum(OPERATORS.stringOptions), value: z.array(z.string()).refine((v) => v.length > 0), type: z.literal('stringOptions') }),
    z.object({ type: z.literal('categoryOptions'), column: z.string(), key: z.string(), operator: z.enum(OPERATORS.categoryOptions), value: z.array(z.string()) }),
    z
      .object({ column: z.string(), operator: z.enum(OPERATORS.arrayOptions), value: z.array(z.string()), type: z.literal('arrayOptions') })
      .refine((data) => data.operator === 'all of' || data.operator === 'none of' || data.value.length > 0, {
        message: "Value array must not be empty unless operator is 'all of' or 'none of' (which represent waiting for selection)",
      }),
    z.object({ type: z.literal('stringObject'), column: z.string(), key: z.string(), operator: stringOperator(matches), value: z.string() }),
    z.object({ type: z.literal('numberObject'), column: z.string(), key: z.string(), operator: z.enum(OPERATORS.number), value: z.number() }),
    z.object({ type: z.literal('booleanObject'), column: z.string(), key: z.string(), operator: z.enum(OPERATORS.booleanObject), value: z.boolean() }),
    z.object({ type: z.literal('boolean'), column: z.string(), operator: z.enum(OPERATORS.boolean), value: z.boolean() }),
    z.object({ type: z.literal('null'), column: z.string(), operator: z.enum(OPERATORS.null), value: z.literal('') }),
    z
      .object({
        type: z.literal('positionInTrace'),
        column: z.string(),
        operator: z.literal('='),
        key: z.enum(['root', 'first', 'last', 'nthFromEnd', 'nthFromStart']),
        value: z.number().optional(),
      })
      .superRefine((data, ctx) => {
        if ((data.key === 'nthFromEnd' || data.key === 'nthFromStart') && (!data.value || data.value < 1)) {
          ctx.addIssue({ code: 'custom', message: 'Position must be >= 1 for nth selection', path: ['value'] });
        }
      }),
  ]);
}

export type SingleFilter = z.output<ReturnType<typeof singleFilter>>;

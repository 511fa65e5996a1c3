import { useTranslations } from "next-intl";
import {
  additionalPropertiesForbidden,
  describeSchemaFields,
  describeSchemaType,
  type SchemaConstraint,
  type SchemaField,
} from "./resume-schema";

/** Comparisons are notation, the same in every language; the rest are words (runDetail.schema.constraints). */
const SYMBOLS = {
  minimum: "≥",
  exclusiveMinimum: ">",
  maximum: "≤",
  exclusiveMaximum: "<",
} as const;
type Worded = Exclude<SchemaConstraint["kind"], keyof typeof SYMBOLS>;

function isSymbol(kind: SchemaConstraint["kind"]): kind is keyof typeof SYMBOLS {
  return kind in SYMBOLS;
}

/** What the tool expects as resume data, from its JSON Schema, for people. */
export function ResumeSchemaView({ schema }: { schema: unknown }) {
  const t = useTranslations("runDetail.schema");
  const fields = describeSchemaFields(schema);
  const typeText = (types: SchemaField["types"]) =>
    types.length ? types.map(({ name, items }) => (items ? t("constraints.arrayOf", { value: items }) : name)).join(" | ") : "any";
  const constraintText = ({ kind, value }: SchemaConstraint) => {
    if (isSymbol(kind)) return `${SYMBOLS[kind]} ${value}`;
    const key: `constraints.${Worded}` = `constraints.${kind}`;
    return t(key, { value });
  };
  if (fields.length === 0) {
    const type = describeSchemaType(schema);
    return (
      <p className="text-sm text-neutral-600">
        {schema === undefined || schema === null ? t("none") : type ? t("valueOfType", { type }) : t("noFields")}
      </p>
    );
  }
  return (
    // On a phone the table scrolls sideways in its box: a keyboard reaches it there too (axe's
    // scrollable-region-focusable, e2e/31), as a region named like the table.
    <div tabIndex={0} role="region" aria-label={t("caption")} className="overflow-x-auto rounded-lg border border-neutral-200">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{t("caption")}</caption>
        <thead className="bg-neutral-50 text-xs uppercase tracking-wide text-neutral-500">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              {t("field")}
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              {t("type")}
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              {t("description")}
            </th>
          </tr>
        </thead>
        <tbody>
          {fields.map((field) => (
            <tr key={field.path} className="border-t border-neutral-200 align-top">
              <th scope="row" className="whitespace-nowrap px-3 py-2 font-mono text-[13px] font-medium text-neutral-900">
                {field.path}
                {field.required ? (
                  <span className="ml-1.5 rounded bg-neutral-900 px-1 py-px font-sans text-[10px] font-semibold uppercase tracking-wide text-white">
                    {t("required")}
                  </span>
                ) : (
                  <span className="ml-1.5 font-sans text-[11px] font-normal text-neutral-500">{t("optional")}</span>
                )}
              </th>
              <td className="whitespace-nowrap px-3 py-2 font-mono text-[13px] text-sky-800">{typeText(field.types)}</td>
              <td className="px-3 py-2 text-neutral-700 [overflow-wrap:anywhere]">
                {field.description ?? <span className="text-neutral-400">—</span>}
                {field.constraints.length ? (
                  <span className="block text-xs text-neutral-500">{field.constraints.map(constraintText).join(" · ")}</span>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {additionalPropertiesForbidden(schema) ? (
        <p className="border-t border-neutral-200 bg-neutral-50 px-3 py-1.5 text-xs text-neutral-500">{t("noOthers")}</p>
      ) : null}
    </div>
  );
}

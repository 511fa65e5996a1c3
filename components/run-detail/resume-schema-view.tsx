import { additionalPropertiesForbidden, describeSchemaFields, describeSchemaType } from "./resume-schema";

/** What the tool expects as resume data, from its JSON Schema, for people. */
export function ResumeSchemaView({ schema }: { schema: unknown }) {
  const fields = describeSchemaFields(schema);
  if (fields.length === 0) {
    const type = describeSchemaType(schema);
    return (
      <p className="text-sm text-neutral-600">
        {schema === undefined || schema === null
          ? "The tool declared no schema for its resume data: any JSON value is accepted."
          : type
            ? `The tool expects a value of type ${type}.`
            : "The tool's schema names no fields."}
      </p>
    );
  }
  return (
    <div className="overflow-x-auto rounded-lg border border-neutral-200">
      <table className="w-full text-left text-sm">
        <caption className="sr-only">Fields the tool expects in the resume data</caption>
        <thead className="bg-neutral-50 text-xs uppercase tracking-wide text-neutral-500">
          <tr>
            <th scope="col" className="px-3 py-2 font-medium">
              Field
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Type
            </th>
            <th scope="col" className="px-3 py-2 font-medium">
              Description
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
                    required
                  </span>
                ) : (
                  <span className="ml-1.5 font-sans text-[11px] font-normal text-neutral-500">optional</span>
                )}
              </th>
              <td className="whitespace-nowrap px-3 py-2 font-mono text-[13px] text-sky-800">{field.type}</td>
              <td className="px-3 py-2 text-neutral-700 [overflow-wrap:anywhere]">
                {field.description ?? <span className="text-neutral-400">—</span>}
                {field.constraints.length ? <span className="block text-xs text-neutral-500">{field.constraints.join(" · ")}</span> : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {additionalPropertiesForbidden(schema) ? (
        <p className="border-t border-neutral-200 bg-neutral-50 px-3 py-1.5 text-xs text-neutral-500">No other fields are accepted.</p>
      ) : null}
    </div>
  );
}

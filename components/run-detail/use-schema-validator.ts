import { useEffect, useState } from "react";
import { loadValidator, type Validator } from "./resume-schema";

/** The resume schema's validator once zod has loaded (undefined until then, and for a schema zod cannot read). */
export function useSchemaValidator(resumeSchema: unknown): Validator | undefined {
  const [loaded, setLoaded] = useState<{ schema: unknown; validate: Validator | undefined }>();
  useEffect(() => {
    let current = true;
    void loadValidator(resumeSchema).then((validate) => {
      if (current) setLoaded({ schema: resumeSchema, validate });
    });
    return () => {
      current = false;
    };
  }, [resumeSchema]);
  return loaded && loaded.schema === resumeSchema ? loaded.validate : undefined;
}

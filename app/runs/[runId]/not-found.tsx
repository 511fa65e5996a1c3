import Link from "next/link";
import { Card } from "@/components/ui/card";
import { buttonClasses } from "@/components/ui/button";

/** A run id the console has never seen waiting or decided: 404. */
export default function RunNotFound() {
  return (
    <Card className="mx-auto mt-8 flex max-w-xl flex-col items-start gap-3 px-6 py-8">
      <h1 className="text-xl font-semibold tracking-tight">No run with this id</h1>
      <p className="text-sm text-neutral-600">
        No run with this id waits here, and this console never decided one. The link may be wrong, or the run was continued outside this
        console.
      </p>
      <Link href="/" className={buttonClasses({ variant: "default", size: "sm", className: "mt-2" })}>
        Back to pending runs
      </Link>
    </Card>
  );
}

import Link from "next/link";
import { buttonClasses } from "@/components/ui/button";

export default function NotFound() {
  return (
    <div className="mx-auto mt-8 flex max-w-xl flex-col items-start gap-3">
      <h1 className="text-xl font-semibold tracking-tight">Page not found</h1>
      <p className="text-sm text-neutral-600">There is nothing at this address.</p>
      <Link href="/" className={buttonClasses({ size: "sm" })}>
        Pending runs
      </Link>
    </div>
  );
}

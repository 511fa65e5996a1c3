import Link from "next/link";
import { Card } from "@/components/ui/card";

export function Forbidden({ message }: { message: string }) {
  return (
    <Card className="mx-auto mt-8 flex max-w-xl flex-col items-start gap-3 px-6 py-8">
      <h1 className="text-xl font-semibold tracking-tight">You cannot open this page</h1>
      <p className="text-sm text-neutral-600">{message} Ask an admin if you need more access.</p>
      <Link href="/" className="text-sm font-medium underline underline-offset-4">
        Back to pending runs
      </Link>
    </Card>
  );
}

import { Badge } from "@/components/ui/badge";

export function KindBadge({ requiresApproval }: { requiresApproval: boolean }) {
  return requiresApproval ? <Badge variant="amber">Approval</Badge> : <Badge variant="blue">Input requested</Badge>;
}

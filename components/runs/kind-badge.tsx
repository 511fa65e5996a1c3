import { useTranslations } from "next-intl";
import { Badge } from "@/components/ui/badge";

export function KindBadge({ requiresApproval }: { requiresApproval: boolean }) {
  const t = useTranslations("queue.kind");
  return requiresApproval ? <Badge variant="amber">{t("approval")}</Badge> : <Badge variant="blue">{t("input")}</Badge>;
}

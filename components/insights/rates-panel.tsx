import { useTranslations } from "next-intl";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import type { InsightsDto, OutcomeRow } from "@/lib/insights/dto";
import { historyHref, periodScope } from "@/lib/insights/history-links";
import { AgentName, ToolName } from "./names";
import { CountLink, Panel, Share } from "./panel";

/** Approval, decline and expiry rates of the decided calls, per agent and per tool. */
export function RatesPanel({ insights, agentNames }: { insights: InsightsDto; agentNames: Map<string, string> }) {
  const t = useTranslations("insights.rates");
  return (
    <Panel id="insights-rates" title={t("title")} intro={t("intro")}>
      <RatesTable insights={insights} rows={insights.byAgent} caption={t("byAgent")} agentNames={agentNames} withTool={false} />
      <RatesTable insights={insights} rows={insights.byTool} caption={t("byTool")} agentNames={agentNames} withTool />
    </Panel>
  );
}

function RatesTable({
  insights,
  rows,
  caption,
  agentNames,
  withTool,
}: {
  insights: InsightsDto;
  rows: OutcomeRow[];
  caption: string;
  agentNames: Map<string, string>;
  withTool: boolean;
}) {
  const t = useTranslations("insights.rates");
  const scope = periodScope(insights);
  return (
    <div className="min-w-0">
      <h3 className="mb-2 text-sm font-medium">{caption}</h3>
      {rows.length === 0 ? (
        <p className="text-sm text-neutral-600">{t("none")}</p>
      ) : (
        <div className="rounded-md border border-neutral-200">
          <Table data-testid={withTool ? "rates-by-tool" : "rates-by-agent"}>
            <TableCaption>{caption}</TableCaption>
            <TableHeader>
              <TableRow>
                <TableHead scope="col">{t("agent")}</TableHead>
                {withTool ? <TableHead scope="col">{t("tool")}</TableHead> : null}
                <TableHead scope="col" className="text-right">
                  {t("decided")}
                </TableHead>
                <TableHead scope="col" className="text-right">
                  {t("approved")}
                </TableHead>
                <TableHead scope="col" className="text-right">
                  {t("declined")}
                </TableHead>
                <TableHead scope="col" className="text-right">
                  {t("expired")}
                </TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((row) => {
                const own = { ...scope, agentId: row.agentId, toolName: withTool ? row.toolName || undefined : undefined };
                return (
                  <TableRow
                    key={`${row.agentId}\u0000${row.toolName}`}
                    data-agent={row.agentId}
                    data-tool={withTool ? row.toolName : undefined}
                  >
                    <TableCell>
                      <AgentName id={row.agentId} names={agentNames} />
                    </TableCell>
                    {withTool ? (
                      <TableCell className="min-w-[10rem]">
                        <ToolName name={row.toolName} />
                      </TableCell>
                    ) : null}
                    <TableCell className="text-right">
                      <CountLink count={row.decided} href={historyHref(insights, own)} />
                    </TableCell>
                    <TableCell className="text-right">
                      <Share value={row.approvalRate} />
                    </TableCell>
                    <TableCell className="text-right">
                      <Share value={row.declineRate} />
                    </TableCell>
                    <TableCell className="text-right">
                      <Share value={row.expiryRate} />
                    </TableCell>
                  </TableRow>
                );
              })}
            </TableBody>
          </Table>
        </div>
      )}
    </div>
  );
}

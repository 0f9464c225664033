import { Alert, Badge, Button, Card, Code, Group, List, Paper, Stack, Text, TextInput } from "@mantine/core";
import { useMutation } from "@tanstack/react-query";
import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";

import { api } from "../api";
import "../strings-start";
import type { TrialAnswer, TrialSay } from "../types";
import { Failure } from "./common";

type TraceEntry = TrialAnswer["trace"][number];

interface Exchange {
  said: string;
  answer: TrialAnswer;
}

/** One line of a turn's trace, as the chat page words it. */
function traceLine(e: TraceEntry): string {
  const s = (v: unknown) => (v === undefined || v === null ? "" : String(v));
  if (e.kind === "node") return `▸ ${s(e.node)}${e.status ? " " + s(e.status) : ""}`;
  if (e.kind === "route") return `route: ${s(e.node)} → ${s(e.route)}`;
  if (e.kind === "engine") return `intent: ${s(e.intent)} ${s(e.confidence)} · ${s(e.engine)}`;
  if (e.kind === "tool") return `tool: ${s(e.tool)} ${e.ok ? "ok" : s(e.error)} · ${s(e.latency_ms)} ms`;
  if (e.kind === "llm") return `model: ${s(e.node)} · ${s(e.model)} · ${s(e.input_tokens)} in / ${s(e.output_tokens)} out · ${s(e.latency_ms)} ms`;
  const { kind, node, ...rest } = e;
  return `${s(kind)}: ${s(node)} ${JSON.stringify(rest)}`;
}

/** The owner chats with her shop's own bot as a test customer: nothing goes to WhatsApp, no money moves. */
export function TryBot() {
  const { t } = useTranslation("start");
  const [text, setText] = useState("");
  const [chat, setChat] = useState<Exchange[]>([]);
  const [openTrace, setOpenTrace] = useState<number | null>(null);
  const say = useMutation({
    mutationFn: (body: TrialSay) => api<TrialAnswer>("/admin/try", { method: "POST", body }),
    onSuccess: (answer, body) => setChat((c) => [...c, { said: body.text ?? body.reply_title ?? "", answer }]),
  });
  const over = useMutation({
    mutationFn: () => api("/admin/try", { method: "DELETE" }),
    onSuccess: () => setChat([]),
  });
  function send(event: FormEvent) {
    event.preventDefault();
    if (!text.trim()) return;
    say.mutate({ text: text.trim() });
    setText("");
  }
  return (
    <Card withBorder data-testid="try-panel">
      <Stack gap="xs">
        <Group justify="space-between">
          <Text fw={600}>{t("try.title")}</Text>
          <Button size="xs" variant="subtle" onClick={() => over.mutate()} loading={over.isPending} disabled={!chat.length}>
            {t("try.startOver")}
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          {t("try.intro")}
        </Text>
        {chat.map((x, i) => (
          <Stack key={i} gap={4}>
            <Paper p="xs" bg="green.0" ml="auto" maw="85%" data-testid="try-said">
              <Text size="sm">{x.said}</Text>
            </Paper>
            {x.answer.replies.map((r, j) => (
              <Paper key={j} p="xs" withBorder maw="85%" data-testid="try-reply">
                {r.header && <Text fw={600} size="sm">{r.header}</Text>}
                <Text size="sm" style={{ whiteSpace: "pre-wrap" }}>
                  {r.body}
                </Text>
                {r.footer && <Text size="xs" c="dimmed">{r.footer}</Text>}
                {r.choices.length > 0 && (
                  <Group gap={4} mt={4}>
                    {r.choices.map((c) => (
                      <Button key={c.id} size="compact-xs" variant="light" disabled={say.isPending} onClick={() => say.mutate({ reply_id: c.id, reply_title: c.title })}>
                        {c.title}
                        {c.description ? ` · ${c.description}` : ""}
                      </Button>
                    ))}
                  </Group>
                )}
              </Paper>
            ))}
            {x.answer.simulated.map((note, j) => (
              <Alert key={j} color="yellow" p="xs" data-testid="try-simulated">
                {t("try.simulated")} {note}
              </Alert>
            ))}
            <Group gap={4}>
              <Badge variant="outline" size="xs" style={{ cursor: "pointer" }} onClick={() => setOpenTrace(openTrace === i ? null : i)}>
                {t("try.trace", { count: x.answer.trace.length })}
              </Badge>
            </Group>
            {openTrace === i && (
              <Code block data-testid="try-trace">
                <List size="xs">
                  {x.answer.trace.map((e, k) => (
                    <List.Item key={k}>{traceLine(e)}</List.Item>
                  ))}
                </List>
              </Code>
            )}
          </Stack>
        ))}
        <form onSubmit={send}>
          <Group align="end">
            <TextInput style={{ flex: 1 }} label={t("try.message")} value={text} onChange={(e) => setText(e.currentTarget.value)} maxLength={4096} />
            <Button type="submit" loading={say.isPending} disabled={!text.trim()}>
              {t("try.send")}
            </Button>
          </Group>
        </form>
        {say.error && <Failure error={say.error} />}
      </Stack>
    </Card>
  );
}

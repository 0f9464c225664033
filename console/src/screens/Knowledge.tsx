import "../styles-more";
import "../strings-kb";
import { Alert, Anchor, Button, Card, FileButton, Group, Paper, Stack, Text, TextInput, Title } from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useRef, useState } from "react";
import { useTranslation } from "react-i18next";

import { api, describe, type Page } from "../api";
import { refresh } from "../logic/refresh";
import type { KbDocument, TryAnswer } from "../types";
import { Guarded } from "./Layout";
import { Ago, Failure, Loading, StatusBadge } from "./common";

interface UploadTicket {
  url: string;
  method: string;
  headers: Record<string, string>;
  document: KbDocument;
}

export function KnowledgeScreen() {
  return (
    <Guarded screen="knowledge">
      <Knowledge />
    </Guarded>
  );
}

const BUSY = new Set(["pending"]);

function Knowledge() {
  const { t, i18n } = useTranslation("kb");
  const client = useQueryClient();
  const docs = useQuery({
    queryKey: ["kb"],
    queryFn: () => api<Page<KbDocument>>("/admin/kb/documents"),
    refetchInterval: (q) => (q.state.data?.items.some((d) => BUSY.has(d.status)) ? 1500 : false),
  });
  const reset = useRef<() => void>(null);
  const upload = useMutation({
    mutationFn: async (file: File) => {
      const ticket = await api<UploadTicket>("/admin/kb/uploads", { method: "POST", body: { filename: file.name, size: file.size } });
      const put = await fetch(ticket.url, { method: ticket.method, headers: ticket.headers, body: file });
      if (!put.ok) throw new Error(`${t("uploadFailed")} (HTTP ${put.status})`);
      return ticket.document;
    },
    onSettled: () => {
      reset.current?.(); // a new version of the same file can be uploaded again
      void refresh(client, ["kb"]);
    },
  });
  const remove = useMutation({
    mutationFn: (docId: string) => api(`/admin/kb/documents/${encodeURIComponent(docId)}`, { method: "DELETE" }),
    onSettled: () => void refresh(client, ["kb"]),
  });
  const [question, setQuestion] = useState("");
  const ask = useMutation({
    mutationFn: () => api<TryAnswer>("/admin/kb/ask", { method: "POST", body: { question, language: i18n.language === "sw" ? "sw" : "en" } }),
  });

  return (
    <Stack>
      <Group justify="space-between">
        <Title order={3}>{t("title")}</Title>
        <FileButton resetRef={reset} onChange={(f) => f && upload.mutate(f)} accept=".md,.txt,.pdf,.docx">
          {(props) => (
            <Button loading={upload.isPending} {...props}>
              {t("upload")}
            </Button>
          )}
        </FileButton>
      </Group>
      <Text size="sm" c="dimmed">
        {t("help")}
      </Text>
      {upload.error && (
        <Alert color="red" role="alert">
          {describe(upload.error)}
        </Alert>
      )}
      {docs.isPending && <Loading />}
      {docs.error && <Failure error={docs.error} />}
      {docs.data?.items.length === 0 && <Text c="dimmed">{t("none")}</Text>}
      {docs.data?.items.map((d) => (
        <Card key={d.doc_id} withBorder padding="sm" data-testid="kb-document">
          <Group justify="space-between" wrap="nowrap">
            <Text fw={600} truncate>
              {d.title}
            </Text>
            <span data-testid="kb-status" data-status={d.status}>
              <StatusBadge value={d.status} group="kbStatus" />
            </span>
          </Group>
          <Text size="xs" c="dimmed">
            {d.filename} · {t("chunks", { count: d.chunk_count })} · <Ago at={d.updated_at} />
          </Text>
          {d.error && <Text size="sm" c="red">{d.error}</Text>}
          {d.flags.map((f) => {
            const [name, count] = f.split(":"); // "instructions_removed:2": the flag and how many
            return (
              <Text key={f} size="xs" c="orange.9" data-testid="kb-flag" data-flag={name}>
                ⚠ {t(`flag.${name}`, { count: Number(count) || 0, defaultValue: f })}
              </Text>
            );
          })}
          <Group justify="flex-end">
            <Anchor size="sm" c="red" onClick={() => remove.mutate(d.doc_id)}>
              {t("common.delete")}
            </Anchor>
          </Group>
        </Card>
      ))}
      <Title order={4}>{t("try")}</Title>
      <Group align="flex-end" wrap="nowrap">
        <TextInput
          style={{ flex: 1 }}
          label={t("question")}
          placeholder={t("questionPlaceholder")}
          value={question}
          onChange={(e) => setQuestion(e.currentTarget.value)}
          onKeyDown={(e) => e.key === "Enter" && question.trim() && ask.mutate()}
        />
        <Button onClick={() => ask.mutate()} disabled={!question.trim()} loading={ask.isPending}>
          {t("ask")}
        </Button>
      </Group>
      {ask.error && <Failure error={ask.error} />}
      {ask.data && (
        <Paper withBorder p="sm" data-testid="kb-answer">
          <Text size="xs" c="dimmed">
            {t("botSays")}
          </Text>
          <Text style={{ whiteSpace: "pre-wrap" }}>{ask.data.answer}</Text>
          {ask.data.sources.length > 0 && (
            <>
              <Text size="xs" c="dimmed" mt="xs">
                {t("sources")}
              </Text>
              {ask.data.sources.map((s, i) => (
                <Text key={i} size="sm" data-testid="kb-source">
                  {s.title}
                  {s.section ? ` - ${s.section}` : ""} ({s.score.toFixed(2)})
                </Text>
              ))}
            </>
          )}
          {!ask.data.answer_found && ask.data.closest.length > 0 && (
            <>
              <Text size="xs" c="dimmed" mt="xs" data-testid="kb-why">
                {t("closestWhy", { percent: Math.round(ask.data.min_coverage * 100) })}
              </Text>
              {ask.data.closest.map((s, i) => (
                <Text key={i} size="sm" data-testid="kb-closest">
                  {s.title}
                  {s.section ? ` - ${s.section}` : ""} ({t("closestScore", { score: s.score.toFixed(2), percent: Math.round(s.coverage * 100) })})
                </Text>
              ))}
            </>
          )}
        </Paper>
      )}
    </Stack>
  );
}

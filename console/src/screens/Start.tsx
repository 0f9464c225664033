import { Alert, Anchor, Button, Card, Center, Checkbox, FileButton, Group, List, NativeSelect, Paper, PasswordInput, Stack, Text, TextInput, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router";

import { api, ApiError, download } from "../api";
import { useAuth } from "../auth";
import { config } from "../config";
import { readSignupMessage, trustedOrigins } from "../logic/embeddedSignup";
import { PASSWORD_RULES, passwordOk, passwordRules } from "../logic/password";
import { shopIdFrom, signUpProblem } from "../logic/signup";
import "../strings-start";
import type { Checklist, MyShop, PackRead, PackRefused, PaymentTest, NewShop, ShopIdCheck, ShopMade, SignupConfig, Trade, WhatsAppConnect, WhatsAppNumber } from "../types";
import { Guarded } from "./Layout";
import { TryBot } from "./TryBot";
import { Failure, LanguagePicker, Loading } from "./common";

// A shop starts on its own: the owner's account (JoinScreen), her shop (NewShopScreen), then getting it ready
// (SetupScreen: its WhatsApp number). One module with its own words (strings-start.ts): seen in that order, by
// new owners only.

/** A new owner's account: name, email and password, then the code Cognito emails her; then she is signed in
 * and makes her shop. */
export function JoinScreen() {
  const { t } = useTranslation("start");
  const { signInWith } = useAuth();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const [step, setStep] = useState<"details" | "code">(params.get("email") ? "code" : "details");
  const [name, setName] = useState("");
  const [email, setEmail] = useState(params.get("email") ?? "");
  const [password, setPassword] = useState("");
  const [code, setCode] = useState("");
  const [note, setNote] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const rules = passwordRules(password);
  const username = email.trim().toLowerCase();

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      const calls = await import("../signUpCalls");
      if (step === "details") {
        // the email is the username: Cognito sets the attribute from it (the app client may not write it)
        await calls.signUp(config(), username, password, name.trim());
        setStep("code");
        setNote(t("join.codeSent", { email: username }));
      } else {
        await calls.confirmSignUp(config(), username, code.trim());
        if (!password) {
          navigate("/sign-in", { replace: true }); // came back for the code: sign in as usual
          return;
        }
        await signInWith(username, password);
        navigate("/new-shop", { replace: true });
      }
    } catch (e) {
      const known = signUpProblem(e);
      setError(known ? t(known) : e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  async function resend() {
    setError(null);
    const calls = await import("../signUpCalls");
    await calls.resendCode(config(), username);
    setNote(t("join.codeSent", { email: username }));
  }

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="lg" w="100%" maw={420}>
        <form onSubmit={submit}>
          <Stack>
            <Group justify="space-between">
              <Title order={3}>{t("join.title")}</Title>
              <LanguagePicker w={120} />
            </Group>
            {step === "details" ? (
              <>
                <Text size="sm">{t("join.intro")}</Text>
                <TextInput label={t("join.name")} autoComplete="name" required value={name} onChange={(e) => setName(e.currentTarget.value)} />
                <TextInput label={t("signIn.email")} type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
                <PasswordInput label={t("signIn.password")} autoComplete="new-password" required value={password} onChange={(e) => setPassword(e.currentTarget.value)} />
                <List size="xs" spacing={2} data-testid="password-rules">
                  {PASSWORD_RULES.map((rule) => (
                    <List.Item key={rule} c={rules[rule] ? "teal" : "dimmed"} data-met={rules[rule]}>
                      {rules[rule] ? "✓ " : "○ "}
                      {t(`signIn.rule.${rule}`)}
                    </List.Item>
                  ))}
                </List>
              </>
            ) : (
              <>
                {note && (
                  <Alert color="teal" role="status">
                    {note}
                  </Alert>
                )}
                <TextInput label={t("signIn.email")} type="email" required value={email} onChange={(e) => setEmail(e.currentTarget.value)} />
                <TextInput label={t("join.code")} inputMode="numeric" autoComplete="one-time-code" required value={code} onChange={(e) => setCode(e.currentTarget.value)} />
                <Anchor component="button" type="button" size="sm" onClick={() => void resend()}>
                  {t("join.resend")}
                </Anchor>
              </>
            )}
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
            <Button type="submit" loading={busy} disabled={step === "details" && !passwordOk(password)}>
              {step === "details" ? t("join.submit") : t("join.confirm")}
            </Button>
            <Text size="sm">
              {t("join.haveAccount")} <Anchor component={Link} to="/sign-in">{t("signIn.submit")}</Anchor>
            </Text>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}

const LANGUAGES = ["en", "sw", "sheng"] as const;
const TONES = ["friendly_concise", "warm_chatty", "formal_polite"] as const;

/** A signed-up owner makes her shop: its name and id, its trade (the starter words and example FAQ), its
 * languages and the bot's name and tone. The shop reaches her token through the server; the console then asks
 * Cognito for a new token. */
export function NewShopScreen() {
  const { t, i18n } = useTranslation("start");
  const { session, loading, refresh } = useAuth();
  const navigate = useNavigate();
  const [name, setName] = useState("");
  const [shopId, setShopId] = useState("");
  const [idEdited, setIdEdited] = useState(false);
  const [trade, setTrade] = useState("");
  const [languages, setLanguages] = useState<string[]>(["en", "sw", "sheng"]);
  const [defaultLanguage, setDefaultLanguage] = useState("en");
  const [botName, setBotName] = useState("Tulia");
  const [tone, setTone] = useState<string>("friendly_concise");
  const [examples, setExamples] = useState(true);
  const [checkedId] = useDebouncedValue(shopId, 400);
  const trades = useQuery({ queryKey: ["signup-trades"], queryFn: () => api<Trade[]>("/admin/signup/trades"), enabled: !!session });
  const mine = useQuery({ queryKey: ["signup-me"], queryFn: () => api<MyShop>("/admin/signup/me"), enabled: !!session });
  const free = useQuery({
    queryKey: ["shop-id", checkedId],
    queryFn: () => api<ShopIdCheck>(`/admin/signup/shop-ids/${encodeURIComponent(checkedId)}`),
    enabled: !!session && checkedId.length >= 2,
  });
  const make = useMutation({
    mutationFn: (body: NewShop) => api<ShopMade>("/admin/signup/shop", { method: "POST", body }),
    onSuccess: async () => {
      await refresh(); // the new token names the shop
      navigate("/setup", { replace: true });
    },
  });

  useEffect(() => {
    if (mine.data?.tenant_id && !session?.tenantId) void refresh(); // made before, the token not yet renewed
  }, [mine.data?.tenant_id, session?.tenantId, refresh]);

  if (loading) return null;
  if (!session) return <Navigate to="/sign-in" replace />;
  if (session.tenantId) return <Navigate to={make.isSuccess ? "/setup" : "/inbox"} replace />; // made: get it ready

  const lang = i18n.language.startsWith("sw") ? "sw" : "en";
  const idProblem = free.data && free.data.tenant_id === shopId && !free.data.available ? free.data.problem : null;

  function submit(event: FormEvent) {
    event.preventDefault();
    make.mutate({
      name: name.trim(),
      tenant_id: shopId,
      trade,
      languages: languages as NewShop["languages"],
      default_language: defaultLanguage as NewShop["default_language"],
      bot_name: botName.trim() || "Tulia",
      tone: tone as NewShop["tone"],
      example_items: examples,
    });
  }

  const failure = make.error instanceof ApiError ? make.error : null;
  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="lg" w="100%" maw={480}>
        <form onSubmit={submit}>
          <Stack>
            <Group justify="space-between">
              <Title order={3}>{t("newShop.title")}</Title>
              <LanguagePicker w={120} />
            </Group>
            <Text size="sm">{t("newShop.intro")}</Text>
            <TextInput
              label={t("newShop.name")}
              required
              value={name}
              onChange={(e) => {
                const value = e.currentTarget.value;
                setName(value);
                if (!idEdited) setShopId(shopIdFrom(value));
              }}
            />
            <TextInput
              label={t("newShop.id")}
              description={t("newShop.idHelp")}
              required
              value={shopId}
              error={idProblem ? t(`newShop.idProblem.${idProblem}`) : undefined}
              onChange={(e) => {
                setIdEdited(true);
                setShopId(e.currentTarget.value.toLowerCase());
              }}
            />
            <NativeSelect
              label={t("newShop.trade")}
              required
              value={trade}
              onChange={(e) => setTrade(e.currentTarget.value)}
              data={[
                { value: "", label: t("newShop.pickTrade") },
                ...(trades.data ?? []).map((x) => ({ value: x.trade, label: x.name[lang] ?? x.name.en ?? x.trade })),
              ]}
            />
            <Checkbox.Group label={t("newShop.languages")} value={languages} onChange={setLanguages}>
              <Group mt={4}>
                {LANGUAGES.map((l) => (
                  <Checkbox key={l} value={l} label={t(`newShop.language.${l}`)} />
                ))}
              </Group>
            </Checkbox.Group>
            <NativeSelect
              label={t("newShop.defaultLanguage")}
              value={defaultLanguage}
              onChange={(e) => setDefaultLanguage(e.currentTarget.value)}
              data={LANGUAGES.filter((l) => languages.includes(l)).map((l) => ({ value: l, label: t(`newShop.language.${l}`) }))}
            />
            <TextInput label={t("newShop.botName")} value={botName} onChange={(e) => setBotName(e.currentTarget.value)} />
            <NativeSelect
              label={t("newShop.tone")}
              value={tone}
              onChange={(e) => setTone(e.currentTarget.value)}
              data={TONES.map((x) => ({ value: x, label: t(`newShop.tones.${x}`) }))}
            />
            <Checkbox
              label={t("newShop.examples")}
              description={t("newShop.examplesHelp")}
              checked={examples}
              onChange={(e) => setExamples(e.currentTarget.checked)}
            />
            {failure && (
              <Alert color="red" role="alert">
                {failure.message}
              </Alert>
            )}
            <Button
              type="submit"
              loading={make.isPending}
              disabled={!name.trim() || !trade || !languages.includes(defaultLanguage) || !!idProblem}
            >
              {t("newShop.submit")}
            </Button>
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}

/** Getting a new shop ready: its WhatsApp number connected in the browser (Meta's Embedded Signup). */
export function SetupScreen() {
  return (
    <Guarded screen="setup">
      <Setup />
    </Guarded>
  );
}

class SignupStopped extends Error {}

declare global {
  interface Window {
    FB?: { init(options: object): void; login(callback: (answer: { authResponse?: { code?: string } }) => void, options: object): void };
    fbAsyncInit?: () => void;
  }
}

function facebookSdk(config: SignupConfig): Promise<NonNullable<Window["FB"]>> {
  return new Promise((resolve, reject) => {
    if (window.FB) return resolve(window.FB);
    window.fbAsyncInit = () => {
      window.FB!.init({ appId: config.app_id, autoLogAppEvents: true, xfbml: false, version: config.graph_version });
      resolve(window.FB!);
    };
    const script = document.createElement("script");
    script.src = "https://connect.facebook.net/en_US/sdk.js";
    script.async = true;
    script.crossOrigin = "anonymous";
    script.onerror = () => reject(new Error("The Facebook SDK did not load."));
    document.body.appendChild(script);
  });
}

/** Opens Meta's signup popup (or the local stand-in) and resolves with what the server needs to connect. */
function chooseNumber(config: SignupConfig): Promise<WhatsAppConnect> {
  return new Promise((resolve, reject) => {
    const origins = trustedOrigins(config.mode, config.dialog_url);
    let chosen: { wabaId: string; phoneNumberId: string } | null = null;
    let code: string | null = null;
    const stop = () => window.removeEventListener("message", onMessage);
    const settle = () => {
      if (chosen && code) {
        stop();
        resolve({ code, waba_id: chosen.wabaId, phone_number_id: chosen.phoneNumberId });
      }
    };
    function onMessage(event: MessageEvent) {
      if (!origins.includes(event.origin)) return;
      const said = readSignupMessage(event.data);
      if (said?.kind === "finish") chosen = { wabaId: said.wabaId, phoneNumberId: said.phoneNumberId };
      else if (said?.kind === "code") code = said.code;
      else if (said?.kind === "cancel") {
        stop();
        return reject(new SignupStopped("cancelled"));
      } else if (said?.kind === "error") {
        stop();
        return reject(new Error(said.message));
      }
      settle();
    }
    window.addEventListener("message", onMessage);
    if (config.mode === "simulator") {
      const popup = window.open(config.dialog_url ?? "", "wa-signup", "width=480,height=640");
      if (!popup) {
        stop();
        reject(new SignupStopped("blocked"));
      }
      return;
    }
    facebookSdk(config)
      .then((FB) =>
        FB.login(
          (answer) => {
            if (answer.authResponse?.code) {
              code = answer.authResponse.code;
              settle();
            } else {
              stop();
              reject(new SignupStopped("cancelled"));
            }
          },
          {
            config_id: config.config_id,
            response_type: "code",
            override_default_response_type: true,
            extras: { setup: {}, featureType: "", sessionInfoVersion: "3" },
          },
        ),
      )
      .catch((e) => {
        stop();
        reject(e);
      });
  });
}

function Setup() {
  const { t } = useTranslation("start");
  const client = useQueryClient();
  const number = useQuery({ queryKey: ["whatsapp"], queryFn: () => api<WhatsAppNumber>("/admin/whatsapp") });
  const signup = useQuery({ queryKey: ["whatsapp-signup"], queryFn: () => api<SignupConfig>("/admin/whatsapp/signup"), retry: false });
  const [problem, setProblem] = useState<string | null>(null);
  const connect = useMutation({
    mutationFn: async () => {
      setProblem(null);
      const chosen = await chooseNumber(signup.data!);
      return api<WhatsAppNumber>("/admin/whatsapp/connect", { method: "POST", body: chosen });
    },
    onSuccess: (connected) => {
      client.setQueryData(["whatsapp"], connected);
      void client.invalidateQueries({ queryKey: ["me"] });
    },
    onError: (e) => setProblem(e instanceof SignupStopped ? t(`setup.${e.message}`) : e instanceof Error ? e.message : String(e)),
  });

  const checks = useQuery({
    queryKey: ["checklist"],
    queryFn: () => api<Checklist>("/admin/shop/checklist"),
    refetchInterval: (q) => (q.state.data?.status === "setup" ? 5_000 : false), // Meta's review, Daraja's answer
  });
  const move = useMutation({
    mutationFn: (to: "go-live" | "pause" | "resume") => api<Checklist>(`/admin/shop/${to}`, { method: "POST", body: {} }),
    onSuccess: (listed) => {
      client.setQueryData(["checklist"], listed);
      void client.invalidateQueries({ queryKey: ["me"] });
    },
  });

  if (number.isLoading || checks.isLoading) return <Loading />;
  if (number.error || checks.error) return <Failure error={number.error ?? checks.error} />;
  const n = number.data!;
  const listed = checks.data!;
  const off = signup.error instanceof ApiError && signup.error.status === 503;
  if (listed.status !== "setup") {
    return (
      <Stack maw={640}>
        <Title order={3}>{t("setup.status")}</Title>
        <Text data-testid="shop-status">{t(`setup.${listed.status}`, { reason: "" })}</Text>
        {listed.status !== "suspended" && (
          <Button w="fit-content" variant="default" loading={move.isPending} onClick={() => move.mutate(listed.status === "live" ? "pause" : "resume")}>
            {listed.status === "live" ? t("setup.pause") : t("setup.resume")}
          </Button>
        )}
        {move.error && <Failure error={move.error} />}
        {listed.status !== "suspended" && <TryBot />}
        <ShopPack canRead={listed.status === "paused"} />
      </Stack>
    );
  }
  return (
    <Stack maw={640}>
      <Title order={3}>{t("setup.title")}</Title>
      <Card withBorder data-testid="setup-whatsapp">
        <Stack gap="xs">
          <Group justify="space-between">
            <Text fw={600}>{t("setup.whatsapp")}</Text>
            {n.connected && <Text c="teal">✓</Text>}
          </Group>
          {n.connected ? (
            <>
              <Text data-testid="whatsapp-number">{t("setup.connected", { number: n.display_phone_number })}</Text>
              <Text size="sm" c="dimmed">
                {t("setup.templates", { approved: n.templates_approved, pending: n.templates_submitted.length })}
              </Text>
            </>
          ) : (
            <>
              <Text size="sm">{t("setup.whatsappIntro")}</Text>
              {off ? (
                <Alert color="yellow">{t("setup.off")}</Alert>
              ) : (
                <Button onClick={() => connect.mutate()} loading={connect.isPending} disabled={!signup.data} w="fit-content">
                  {connect.isPending ? t("setup.connecting") : t("setup.connect")}
                </Button>
              )}
            </>
          )}
          {problem && (
            <Alert color="red" role="alert">
              {problem}
            </Alert>
          )}
        </Stack>
      </Card>
      <MpesaTest onProven={() => void client.invalidateQueries({ queryKey: ["checklist"] })} />
      <CardTest onProven={() => void client.invalidateQueries({ queryKey: ["checklist"] })} />
      <Card withBorder>
        <Stack gap={4}>
          <Text fw={600}>{t("setup.checklist")}</Text>
          {listed.checks.map((c) => (
            <Text key={c.item} c={c.done ? "teal" : undefined} data-testid={`check-${c.item}`} data-done={c.done}>
              {c.done ? "✓ " : "○ "}
              {t(`setup.item.${c.item}`)}
            </Text>
          ))}
          <Button mt="sm" w="fit-content" disabled={!listed.complete} loading={move.isPending} onClick={() => move.mutate("go-live")}>
            {t("setup.goLive")}
          </Button>
          {move.error && <Failure error={move.error} />}
        </Stack>
      </Card>
      <TryBot />
      <ShopPack canRead />
    </Stack>
  );
}

/** The shop as a pack: downloaded (what `tulia seed` reads), or a pack read into the shop while it is not live. */
function ShopPack({ canRead }: { canRead: boolean }) {
  const { t } = useTranslation("start");
  const shop = useAuth().session?.tenantId ?? "shop";
  const client = useQueryClient();
  const reset = useRef<() => void>(null);
  const [problems, setProblems] = useState<PackRefused["problems"] | null>(null);
  const read = useMutation({
    mutationFn: (file: File) => api<PackRead>("/admin/shop/pack", { method: "POST", raw: file, contentType: "application/zip" }),
    onMutate: () => setProblems(null),
    onSuccess: () => void client.invalidateQueries(),
    onError: (e) => {
      if (e instanceof ApiError && e.status === 422 && e.body && typeof e.body === "object" && "problems" in e.body) setProblems((e.body as PackRefused).problems);
    },
    onSettled: () => reset.current?.(),
  });
  return (
    <Card withBorder data-testid="shop-pack">
      <Stack gap="xs">
        <Text fw={600}>{t("pack.title")}</Text>
        <Text size="sm">{t("pack.intro")}</Text>
        <Group>
          <Button variant="default" onClick={() => void download("/admin/shop/pack", {}, `${shop}-pack.zip`)}>
            {t("pack.download")}
          </Button>
          {canRead && (
            <FileButton resetRef={reset} accept=".zip,application/zip" onChange={(f) => f && read.mutate(f)}>
              {(props) => (
                <Button variant="light" loading={read.isPending} {...props}>
                  {t("pack.upload")}
                </Button>
              )}
            </FileButton>
          )}
        </Group>
        {read.data && <Text data-testid="pack-read" c="teal">{t("pack.read", { ...read.data })}</Text>}
        {problems && (
          <Alert color="red" role="alert" title={t("pack.problems")}>
            <List size="sm">
              {problems.map((p, i) => (
                <List.Item key={i}>{[p.file, p.location, p.message].filter(Boolean).join(": ")}</List.Item>
              ))}
            </List>
          </Alert>
        )}
        {read.error && !problems && <Failure error={read.error} />}
      </Stack>
    </Card>
  );
}

/** A KES 1 PesaPal checkout the owner pays with her own card (in a new tab); its outcome is read until PesaPal's
 * notification has settled it. */
function CardTest({ onProven }: { onProven: () => void }) {
  const { t } = useTranslation("start");
  const [testId, setTestId] = useState<string | null>(null);
  const start = useMutation({
    mutationFn: () => api<PaymentTest>("/admin/payments/tests", { method: "POST", body: { method: "pesapal" } }),
    onSuccess: (test) => {
      setTestId(test.test_id);
      if (test.checkout_url) window.open(test.checkout_url, "_blank", "noopener");
    },
  });
  const test = useQuery({
    queryKey: ["payment-test", testId],
    queryFn: () => api<PaymentTest>(`/admin/payments/tests/${testId}`),
    enabled: testId !== null,
    refetchInterval: (q) => (q.state.data?.status === "pending" || !q.state.data ? 2000 : false),
  });
  const outcome = test.data;
  useEffect(() => {
    if (outcome?.status === "succeeded") onProven();
  }, [outcome?.status, onProven]);
  return (
    <Card withBorder data-testid="setup-card">
      <Stack gap="xs">
        <Text fw={600}>{t("setup.card")}</Text>
        <Text size="sm">{t("setup.cardIntro")}</Text>
        <Button w="fit-content" variant="default" onClick={() => start.mutate()} loading={start.isPending || outcome?.status === "pending"}>
          {t("setup.cardTest")}
        </Button>
        {start.error && <Failure error={start.error} />}
        {outcome?.checkout_url && outcome.status === "pending" && (
          <Anchor href={outcome.checkout_url} target="_blank" rel="noopener" size="sm">
            {t("setup.cardOpen")}
          </Anchor>
        )}
        {outcome && (
          <Text data-testid="card-test" c={outcome.status === "succeeded" ? "teal" : outcome.status === "failed" ? "red" : undefined}>
            {outcome.status === "pending"
              ? t("setup.cardPending")
              : outcome.status === "succeeded"
                ? t("setup.cardSucceeded", { receipt: outcome.receipt ?? "" })
                : t("setup.testFailed", { why: outcome.result_desc ?? "" })}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

/** The KES 1 test prompt to the owner's own phone; its outcome is read until Daraja has answered. */
function MpesaTest({ onProven }: { onProven: () => void }) {
  const { t } = useTranslation("start");
  const [phone, setPhone] = useState("");
  const [testId, setTestId] = useState<string | null>(null);
  const start = useMutation({
    mutationFn: () => api<PaymentTest>("/admin/payments/tests", { method: "POST", body: { method: "mpesa_stk", phone } }),
    onSuccess: (test) => setTestId(test.test_id),
  });
  const test = useQuery({
    queryKey: ["payment-test", testId],
    queryFn: () => api<PaymentTest>(`/admin/payments/tests/${testId}`),
    enabled: testId !== null,
    refetchInterval: (q) => (q.state.data?.status === "pending" || !q.state.data ? 2000 : false),
  });
  const outcome = test.data;
  useEffect(() => {
    if (outcome?.status === "succeeded") onProven();
  }, [outcome?.status, onProven]);
  return (
    <Card withBorder data-testid="setup-mpesa">
      <Stack gap="xs">
        <Text fw={600}>{t("setup.mpesa")}</Text>
        <Text size="sm">{t("setup.mpesaIntro")}</Text>
        <Group align="end">
          <TextInput label={t("setup.phone")} inputMode="tel" value={phone} onChange={(e) => setPhone(e.currentTarget.value)} />
          <Button onClick={() => start.mutate()} loading={start.isPending || outcome?.status === "pending"} disabled={phone.trim().length < 9}>
            {t("setup.sendTest")}
          </Button>
        </Group>
        {start.error && <Failure error={start.error} />}
        {outcome && (
          <Text data-testid="mpesa-test" c={outcome.status === "succeeded" ? "teal" : outcome.status === "failed" ? "red" : undefined}>
            {outcome.status === "pending"
              ? t("setup.testPending")
              : outcome.status === "succeeded"
                ? t("setup.testSucceeded", { receipt: outcome.receipt ?? "" })
                : t("setup.testFailed", { why: outcome.result_desc ?? "" })}
          </Text>
        )}
      </Stack>
    </Card>
  );
}

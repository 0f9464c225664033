import { Alert, Anchor, Button, Center, Checkbox, Group, List, NativeSelect, Paper, PasswordInput, Stack, Text, TextInput, Title } from "@mantine/core";
import { useDebouncedValue } from "@mantine/hooks";
import { useMutation, useQuery } from "@tanstack/react-query";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useNavigate, useSearchParams } from "react-router";

import { api, ApiError } from "../api";
import { useAuth } from "../auth";
import { PASSWORD_RULES, passwordOk, passwordRules } from "../logic/password";
import { shopIdFrom, signUpProblem } from "../logic/signup";
import type { MyShop, NewShop, ShopIdCheck, ShopMade, Trade } from "../types";
import { LanguagePicker } from "./common";

// A shop starts on its own: the owner's account (JoinScreen), then her shop (NewShopScreen). One module: both are
// seen once, one after the other.

/** A new owner's account: name, email and password, then the code Cognito emails her; then she is signed in
 * and makes her shop. */
export function JoinScreen() {
  const { t } = useTranslation();
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
      const calls = await import("../signInCalls");
      if (step === "details") {
        // the email is the username: Cognito sets the attribute from it (the app client may not write it)
        await calls.signUp({ username, password, options: { userAttributes: { name: name.trim() } } });
        setStep("code");
        setNote(t("join.codeSent", { email: username }));
      } else {
        await calls.confirmSignUp({ username, confirmationCode: code.trim() });
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
    const calls = await import("../signInCalls");
    await calls.resendSignUpCode({ username });
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
  const { t, i18n } = useTranslation();
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
      navigate("/settings", { replace: true });
    },
  });

  useEffect(() => {
    if (mine.data?.tenant_id && !session?.tenantId) void refresh(); // made before, the token not yet renewed
  }, [mine.data?.tenant_id, session?.tenantId, refresh]);

  if (loading) return null;
  if (!session) return <Navigate to="/sign-in" replace />;
  if (session.tenantId) return <Navigate to="/inbox" replace />;

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

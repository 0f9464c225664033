import { Alert, Anchor, Button, Center, Group, List, Paper, PasswordInput, Stack, Text, TextInput, Title } from "@mantine/core";
import { useEffect, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Link, Navigate, useNavigate } from "react-router";

import { prepareSignIn, useAuth } from "../auth";
import { PASSWORD_RULES, passwordOk, passwordRules, signInProblem } from "../logic/password";
import { LanguagePicker } from "./common";

export function SignInScreen() {
  const { session, signInWith, chooseNewPassword } = useAuth();
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [email, setEmail] = useState("");
  const [password, setPassword] = useState("");
  const [step, setStep] = useState<"password" | "new_password">("password");
  const [newPassword, setNewPassword] = useState("");
  const [repeat, setRepeat] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  useEffect(prepareSignIn, []);

  const rules = passwordRules(newPassword);
  if (session && step === "password") return <Navigate to="/inbox" replace />;

  async function submit(event: FormEvent) {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      if (step === "password") {
        const next = await signInWith(email, password);
        if (next === "new_password") setStep("new_password");
        else if (next === "confirm_email") navigate(`/join?email=${encodeURIComponent(email.trim().toLowerCase())}`);
        else navigate("/inbox");
      } else {
        if (newPassword !== repeat) {
          setError(t("signIn.mismatch"));
          return;
        }
        await chooseNewPassword(newPassword);
        navigate("/inbox");
      }
    } catch (e) {
      const known = signInProblem(e);
      setError(known ? t(known) : e instanceof Error ? e.message : String(e));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Center mih="100vh" p="md">
      <Paper withBorder shadow="sm" p="lg" w="100%" maw={380}>
        <form onSubmit={submit}>
          <Stack>
            <Group justify="space-between">
              <Title order={3}>{t("signIn.title")}</Title>
              <LanguagePicker w={120} />
            </Group>
            {step === "password" ? (
              <>
                <TextInput
                  label={t("signIn.email")}
                  type="email"
                  autoComplete="username"
                  required
                  value={email}
                  onChange={(e) => setEmail(e.currentTarget.value)}
                />
                <PasswordInput
                  label={t("signIn.password")}
                  autoComplete="current-password"
                  required
                  value={password}
                  onChange={(e) => setPassword(e.currentTarget.value)}
                />
              </>
            ) : (
              <>
                <Text size="sm">{t("signIn.chooseNew")}</Text>
                <PasswordInput
                  label={t("signIn.newPassword")}
                  autoComplete="new-password"
                  required
                  value={newPassword}
                  onChange={(e) => setNewPassword(e.currentTarget.value)}
                />
                <List size="xs" spacing={2} data-testid="password-rules">
                  {PASSWORD_RULES.map((rule) => (
                    <List.Item key={rule} c={rules[rule] ? "teal" : "dimmed"} data-met={rules[rule]}>
                      {rules[rule] ? "✓ " : "○ "}
                      {t(`signIn.rule.${rule}`)}
                    </List.Item>
                  ))}
                </List>
                <PasswordInput
                  label={t("signIn.repeat")}
                  autoComplete="new-password"
                  required
                  value={repeat}
                  onChange={(e) => setRepeat(e.currentTarget.value)}
                />
              </>
            )}
            {error && (
              <Alert color="red" role="alert">
                {error}
              </Alert>
            )}
            <Button type="submit" loading={busy} disabled={step === "new_password" && !passwordOk(newPassword)}>
              {step === "password" ? t("signIn.submit") : t("signIn.saveAndEnter")}
            </Button>
            {step === "password" && (
              <Text size="sm">
                {t("signIn.newShop")} <Anchor component={Link} to="/join">{t("signIn.create")}</Anchor>
              </Text>
            )}
          </Stack>
        </form>
      </Paper>
    </Center>
  );
}

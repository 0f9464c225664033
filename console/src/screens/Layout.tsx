import { Alert, AppShell, Badge, Burger, Button, Center, Group, Loader, NavLink, Stack, Text } from "@mantine/core";
import { useDisclosure } from "@mantine/hooks";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { Navigate, Outlet, useLocation, useNavigate } from "react-router";

import { useUnread } from "../alerts";
import { api } from "../api";
import { useAuth } from "../auth";
import { badgeText } from "../logic/alerts";
import { LanguagePicker } from "./common";
import { mayOpen, type Screen } from "../logic/roles";
import type { Me } from "../types";

const SCREENS: Screen[] = [
  "setup",
  "inbox",
  "conversations",
  "orders",
  "customers",
  "bookings",
  "money",
  "catalog",
  "offers",
  "messages",
  "knowledge",
  "understanding",
  "analytics",
  "settings",
  "alerts",
];

export function Layout() {
  const { session, loading } = useAuth();
  const { t } = useTranslation();
  const [opened, { toggle, close }] = useDisclosure();
  const location = useLocation();
  const navigate = useNavigate();
  const me = useQuery({ queryKey: ["me"], queryFn: () => api<Me>("/admin/me"), enabled: !!session?.tenantId });
  const unread = useUnread(!!session?.tenantId); // a token without a shop (a newcomer, an operator) has none

  if (loading) {
    return (
      <Center h="100vh">
        <Loader />
      </Center>
    );
  }
  if (!session) return <Navigate to="/sign-in" replace state={{ from: location.pathname }} />;
  if (!session.tenantId) return <Navigate to={session.operator ? "/platform" : "/new-shop"} replace />; // no shop (yet)

  return (
    <AppShell
      header={{ height: 56 }}
      navbar={{ width: 220, breakpoint: "sm", collapsed: { mobile: !opened } }}
      padding="md"
    >
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label={t("nav.menu")} />
            <Text fw={700} truncate data-testid="shop-name">
              {me.data?.shop_name ?? "Tulia"}
            </Text>
          </Group>
          <Group gap="xs" wrap="nowrap" visibleFrom="sm">
            <Controls />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs">
        {SCREENS.filter(
          (s) =>
            mayOpen(session.roles, s) &&
            (s !== "bookings" || me.data?.takes_bookings !== false) &&
            (s !== "setup" || me.data !== undefined),
        ).map((s) => (
          <NavLink
            key={s}
            label={t(s === "setup" && me.data?.status !== "setup" ? "nav.status" : `nav.${s}`)}
            rightSection={
              badgeText(unread[s]) ? (
                <Badge size="sm" color="red" circle={(unread[s] ?? 0) < 10} data-testid={`badge-${s}`}>
                  {badgeText(unread[s])}
                </Badge>
              ) : null
            }
            active={location.pathname.startsWith(`/${s}`)}
            onClick={() => {
              navigate(`/${s}`);
              close();
            }}
          />
        ))}
        <Stack gap="xs" mt="md" p="xs" hiddenFrom="sm">
          <Controls />
        </Stack>
        <Text size="xs" c="dimmed" mt="auto" p="xs" data-testid="who">
          {session.email} · {session.roles.map((r) => t(`roles.${r}`)).join(", ")}
        </Text>
      </AppShell.Navbar>
      <AppShell.Main>
        <Outlet />
      </AppShell.Main>
    </AppShell>
  );
}

/** The console's language and signing out: in the header on a laptop, in the menu on a phone. */
function Controls() {
  const { leave } = useAuth();
  const { t } = useTranslation();
  const navigate = useNavigate();
  return (
    <>
      <LanguagePicker />
      <Button
        variant="subtle"
        size="xs"
        onClick={() => {
          void leave().then(() => navigate("/sign-in"));
        }}
      >
        {t("nav.signOut")}
      </Button>
    </>
  );
}

/** A screen only some roles may open: others are told so (the API would refuse them anyway). */
export function Guarded({ screen, children }: { screen: Screen; children: ReactNode }) {
  const { session } = useAuth();
  const { t } = useTranslation();
  if (session && !mayOpen(session.roles, screen)) {
    return (
      <Alert color="orange" title={t("common.notAllowedTitle")} data-testid="not-allowed">
        {t("common.notAllowed")}
      </Alert>
    );
  }
  return <>{children}</>;
}

import "../styles-more";
import {
  ActionIcon,
  Alert,
  Button,
  Card,
  Checkbox,
  Code,
  Group,
  SimpleGrid,
  NativeSelect,
  Stack,
  Switch,
  Text,
  TextInput,
  Textarea,
  Title,
} from "@mantine/core";
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";

import { api, describe } from "../api";
import { depositFromText, depositToText } from "../logic/catalog";
import { slugOf } from "../logic/ids";
import { registering } from "../logic/payments";
import { changedSections } from "../logic/settings";
import { refresh } from "../logic/refresh";
import { useAuth } from "../auth";
import { fromFields, toFields, type LocalTextFields } from "../logic/localText";
import { pointFromText, pointToText, radiusFromText, type GeoPoint } from "../logic/zones";
import type { LocalText, Me, StaffMember, Tenant } from "../types";
import { Guarded } from "./Layout";
import { Failure, Loading, NumberField, StatusBadge } from "./common";

export function SettingsScreen() {
  return (
    <Guarded screen="settings">
      <Settings />
    </Guarded>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Card withBorder>
      <Title order={5} mb="xs">
        {title}
      </Title>
      <Stack gap="xs">{children}</Stack>
    </Card>
  );
}

function TwoLanguages({ label, value, onChange }: { label: string; value: LocalTextFields; onChange: (v: LocalTextFields) => void }) {
  return (
    <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
      <TextInput label={`${label} (English)`} value={value.en} onChange={(e) => onChange({ ...value, en: e.currentTarget.value })} />
      <TextInput label={`${label} (Kiswahili)`} value={value.sw} onChange={(e) => onChange({ ...value, sw: e.currentTarget.value })} />
    </SimpleGrid>
  );
}

interface Zone {
  name: string;
  fee: number;
  eta: LocalTextFields;
  areas: string; // as typed: estates and areas separated by commas
  original: LocalText | null;
  centre: string; // as typed: "latitude, longitude"
  radius: string; // as typed, in km
  polygon: GeoPoint[] | null; // drawn in the pack (kept as it is, or removed)
}

/** A person customers book, as the owner edits them (dates and lists as typed). */
interface Stylist {
  id: string;
  name: string;
  hours: string;
  breaks: string;
  daysOff: string;
}

interface SettingsState {
  f: Tenant;
  zones: Zone[];
  book: Book | null;
  pickupAddress: LocalTextFields;
  pickupEta: LocalTextFields;
  responseTime: LocalTextFields;
  location: LocalTextFields;
}

/** The PATCH body of the whole form, built the same way from what was loaded and from what she typed. */
function settingsBody({ f, zones, book, pickupAddress, pickupEta, responseTime, location }: SettingsState): Record<string, unknown> {
  return {
    name: f.name,
    hours: f.hours?.trim() || null,
    location: fromFields(location, f.location),
    persona: f.persona,
    languages: f.languages,
    payments: f.payments,
    delivery_zones: zones.map(({ original, centre, radius, ...z }) => ({
      ...z,
      areas: commaList(z.areas),
      eta: fromFields(z.eta, original) ?? "",
      // what is not a point or a radius goes as typed: the server says what is wrong with it
      centre: pointFromText(centre) === undefined ? centre : pointFromText(centre),
      radius_km: radiusFromText(radius) === undefined ? radius : radiusFromText(radius),
    })),
    ...(book
      ? {
          bookings: {
            ...(f.bookings ?? {}),
            hours: book.hours.trim(),
            holidays: commaList(book.holidays),
            deposit: depositFromText(book.deposit),
            policy: { ...(f.bookings?.policy ?? {}), notice_hours: Number(book.notice) },
            staff: book.staff.map((m) => ({
              id: m.id || staffId(m.name, book.staff),
              name: m.name.trim(),
              hours: m.hours.trim() || null,
              breaks: m.breaks.trim() || null,
              days_off: commaList(m.daysOff),
            })),
          },
        }
      : {}),
    pickup: {
      ...f.pickup,
      address: fromFields(pickupAddress, f.pickup.address),
      eta: fromFields(pickupEta, f.pickup.eta) ?? f.pickup.eta,
    },
    ...(f.messaging ? { messaging: { ...f.messaging, marketing_hours: f.messaging.marketing_hours.trim() } } : {}),
    handoff: {
      ...f.handoff,
      hours: f.handoff.hours || null,
      response_time: fromFields(responseTime, f.handoff.response_time) ?? f.handoff.response_time,
    },
  };
}

type Book = { hours: string; holidays: string; deposit: string; notice: number | string; staff: Stylist[] };

const commaList = (text: string) => text.split(",").map((x) => x.trim()).filter(Boolean);

function Settings() {
  const { t } = useTranslation();
  const client = useQueryClient();
  const tenant = useQuery({ queryKey: ["tenant"], queryFn: () => api<Tenant>("/admin/tenant") });
  const [form, setForm] = useState<Tenant | null>(null);
  const [zones, setZones] = useState<Zone[]>([]);
  const [pickupAddress, setPickupAddress] = useState<LocalTextFields>({ en: "", sw: "" });
  const [pickupEta, setPickupEta] = useState<LocalTextFields>({ en: "", sw: "" });
  const [responseTime, setResponseTime] = useState<LocalTextFields>({ en: "", sw: "" });
  const [location, setLocation] = useState<LocalTextFields>({ en: "", sw: "" });
  const [book, setBook] = useState<Book | null>(null);
  const [loaded, setLoaded] = useState<Record<string, unknown> | null>(null); // the body as loaded, to send only changes
  const me = useQuery({ queryKey: ["me"], queryFn: () => api<Me>("/admin/me") });
  useEffect(() => {
    const d = tenant.data;
    if (!d) return;
    const b = d.bookings;
    const state: SettingsState = {
      f: d,
      zones: d.delivery_zones.map(({ radius_km, ...z }) => ({
        ...z,
        areas: z.areas.join(", "),
        eta: toFields(z.eta),
        original: z.eta,
        centre: pointToText(z.centre),
        radius: radius_km ? String(radius_km) : "",
        polygon: z.polygon ?? null,
      })),
      book: b
        ? {
            hours: b.hours,
            holidays: (b.holidays ?? []).join(", "),
            deposit: depositToText(b.deposit),
            notice: b.policy?.notice_hours ?? 24,
            staff: (b.staff ?? []).map((m) => ({ id: m.id, name: m.name, hours: m.hours ?? "", breaks: m.breaks ?? "", daysOff: (m.days_off ?? []).join(", ") })),
          }
        : null,
      pickupAddress: toFields(d.pickup.address),
      pickupEta: toFields(d.pickup.eta),
      responseTime: toFields(d.handoff.response_time),
      location: toFields(d.location),
    };
    setForm(state.f);
    setZones(state.zones);
    setBook(state.book);
    setPickupAddress(state.pickupAddress);
    setPickupEta(state.pickupEta);
    setResponseTime(state.responseTime);
    setLocation(state.location);
    setLoaded(settingsBody(state));
  }, [tenant.data]);
  const save = useMutation({
    // only the sections she changed: two people saving different sections at once do not undo each other
    mutationFn: (state: SettingsState) =>
      api<Tenant>("/admin/tenant", { method: "PATCH", body: changedSections(loaded ?? {}, settingsBody(state)) }),
    onSuccess: (data) => {
      client.setQueryData(["tenant"], data);
      void refresh(client, ["me"]);
    },
  });

  if (tenant.isPending || !form) return tenant.error ? <Failure error={tenant.error} /> : <Loading />;
  const set = (change: Partial<Tenant>) => setForm({ ...form, ...change });
  const langs = ["en", "sw", "sheng"] as const;
  const p = form.payments;

  return (
    <Stack>
      <Title order={3}>{t("settings.title")}</Title>
      <Section title={t("settings.bot")}>
        <TextInput label={t("settings.shopName")} value={form.name} onChange={(e) => set({ name: e.currentTarget.value })} />
        <TextInput label={t("settings.botName")} value={form.persona.bot_name} onChange={(e) => set({ persona: { ...form.persona, bot_name: e.currentTarget.value } })} />
        <Textarea label={t("settings.persona")} value={form.persona.bot_intro} autosize onChange={(e) => set({ persona: { ...form.persona, bot_intro: e.currentTarget.value } })} />
        <TextInput label={t("settings.shopHours")} description={t("settings.shopHoursHelp")} value={form.hours ?? ""} onChange={(e) => set({ hours: e.currentTarget.value })} />
        <TwoLanguages label={t("settings.location")} value={location} onChange={setLocation} />
      </Section>
      <Section title={t("settings.languages")}>
        <Group>
          {langs.map((l) => (
            <Checkbox
              key={l}
              label={t(`languageNames.${l}`)}
              checked={form.languages.allowed.includes(l)}
              onChange={(e) => {
                const allowed = e.currentTarget.checked ? [...form.languages.allowed, l] : form.languages.allowed.filter((x) => x !== l);
                set({ languages: { ...form.languages, allowed } });
              }}
            />
          ))}
        </Group>
        <NativeSelect
          label={t("settings.defaultLanguage")}
          data={form.languages.allowed.map((l) => ({ value: l, label: t(`languageNames.${l}`) }))}
          value={form.languages.default}
          onChange={(e) => set({ languages: { ...form.languages, default: e.currentTarget.value as Tenant["languages"]["default"] } })}
          
        />
      </Section>
      <Section title={t("settings.payments")}>
        <Switch
          label={t("methods.mpesa_stk")}
          checked={!!p.mpesa_stk}
          onChange={(e) =>
            set({ payments: { ...p, mpesa_stk: e.currentTarget.checked ? { shortcode: "", passkey: "", transaction_type: "CustomerPayBillOnline" } : null } })
          }
        />
        {p.mpesa_stk && (
          <Group grow>
            <TextInput label={t("settings.shortcode")} value={p.mpesa_stk.shortcode} onChange={(e) => set({ payments: { ...p, mpesa_stk: { ...p.mpesa_stk!, shortcode: e.currentTarget.value } } })} />
            <TextInput label={t("settings.passkey")} type="password" value={p.mpesa_stk.passkey} onChange={(e) => set({ payments: { ...p, mpesa_stk: { ...p.mpesa_stk!, passkey: e.currentTarget.value } } })} />
          </Group>
        )}
        {p.mpesa_stk && (
          <Group grow>
            <TextInput label={`Daraja ${t("settings.consumerKey")}`} type="password" value={p.mpesa_stk.consumer_key ?? ""} onChange={(e) => set({ payments: { ...p, mpesa_stk: { ...p.mpesa_stk!, consumer_key: e.currentTarget.value || null } } })} />
            <TextInput label={`Daraja ${t("settings.consumerSecret")}`} type="password" value={p.mpesa_stk.consumer_secret ?? ""} onChange={(e) => set({ payments: { ...p, mpesa_stk: { ...p.mpesa_stk!, consumer_secret: e.currentTarget.value || null } } })} />
          </Group>
        )}
        <Switch label={t("methods.mpesa_c2b")} checked={!!p.mpesa_c2b} onChange={(e) => set({ payments: { ...p, mpesa_c2b: e.currentTarget.checked ? { paybill: "" } : null } })} />
        {p.mpesa_c2b && (
          <Group grow>
            <TextInput label={t("settings.paybill")} value={p.mpesa_c2b.paybill ?? ""} onChange={(e) => set({ payments: { ...p, mpesa_c2b: { paybill: e.currentTarget.value || null, till: e.currentTarget.value ? null : p.mpesa_c2b!.till } } })} />
            <TextInput label={t("settings.till")} value={p.mpesa_c2b.till ?? ""} onChange={(e) => set({ payments: { ...p, mpesa_c2b: { till: e.currentTarget.value || null, paybill: e.currentTarget.value ? null : p.mpesa_c2b!.paybill } } })} />
          </Group>
        )}
        {registering(tenant.data) && (
          <Alert color="yellow" data-testid="c2b-registering">
            {t("settings.registering", { number: registering(tenant.data) })}
          </Alert>
        )}
        <Switch label={t("methods.pesapal")} checked={!!p.pesapal?.enabled} onChange={(e) => set({ payments: { ...p, pesapal: e.currentTarget.checked ? { ...(p.pesapal ?? {}), enabled: true } : null } })} />
        {p.pesapal?.enabled && (
          <Group grow>
            <TextInput label={`PesaPal ${t("settings.consumerKey")}`} type="password" value={p.pesapal.consumer_key ?? ""} onChange={(e) => set({ payments: { ...p, pesapal: { ...p.pesapal!, consumer_key: e.currentTarget.value || null } } })} />
            <TextInput label={`PesaPal ${t("settings.consumerSecret")}`} type="password" value={p.pesapal.consumer_secret ?? ""} onChange={(e) => set({ payments: { ...p, pesapal: { ...p.pesapal!, consumer_secret: e.currentTarget.value || null } } })} />
          </Group>
        )}
      </Section>
      <Section title={t("settings.delivery")}>
        {zones.map((z, i) => (
          <Card key={i} withBorder padding="xs" data-testid="zone">
            <Group align="flex-end" wrap="nowrap" gap="xs">
              <TextInput style={{ flex: 1 }} label={t("settings.zone")} value={z.name} onChange={(e) => setZones(zones.map((x, j) => (j === i ? { ...x, name: e.currentTarget.value } : x)))} />
              <NumberField w={100} label={t("settings.fee")} value={z.fee} min={0} onChange={(v) => setZones(zones.map((x, j) => (j === i ? { ...x, fee: Number(v) } : x)))} />
              <ActionIcon variant="subtle" color="red" aria-label={t("common.delete")} onClick={() => setZones(zones.filter((_, j) => j !== i))}>
                ✕
              </ActionIcon>
            </Group>
            <Textarea
              label={t("settings.areas")}
              description={t("settings.areasHelp")}
              autosize
              minRows={1}
              value={z.areas}
              onChange={(e) => setZones(zones.map((x, j) => (j === i ? { ...x, areas: e.currentTarget.value } : x)))}
            />
            <TwoLanguages label={t("settings.eta")} value={z.eta} onChange={(eta) => setZones(zones.map((x, j) => (j === i ? { ...x, eta } : x)))} />
            {z.polygon ? (
              <Group gap="xs">
                <Text size="sm">{t("settings.zoneDrawn", { count: z.polygon.length })}</Text>
                <Button size="compact-xs" variant="subtle" onClick={() => setZones(zones.map((x, j) => (j === i ? { ...x, polygon: null } : x)))}>
                  {t("settings.zoneUndraw")}
                </Button>
              </Group>
            ) : (
              <Group grow>
                <TextInput
                  label={t("settings.zoneCentre")}
                  description={t("settings.zoneCentreHelp")}
                  value={z.centre}
                  error={pointFromText(z.centre) === undefined ? t("settings.zoneCentreBad") : undefined}
                  onChange={(e) => setZones(zones.map((x, j) => (j === i ? { ...x, centre: e.currentTarget.value } : x)))}
                />
                <TextInput
                  label={t("settings.zoneRadius")}
                  inputMode="decimal"
                  value={z.radius}
                  onChange={(e) => setZones(zones.map((x, j) => (j === i ? { ...x, radius: e.currentTarget.value } : x)))}
                />
              </Group>
            )}
          </Card>
        ))}
        <Button variant="light" onClick={() => setZones([...zones, { name: "", fee: 0, eta: { en: "", sw: "" }, areas: "", original: null, centre: "", radius: "", polygon: null }])}>
          {t("settings.addZone")}
        </Button>
        <Switch label={t("settings.pickup")} checked={form.pickup.enabled} onChange={(e) => set({ pickup: { ...form.pickup, enabled: e.currentTarget.checked } })} />
        <TwoLanguages label={t("settings.pickupAddress")} value={pickupAddress} onChange={setPickupAddress} />
        <TwoLanguages label={t("settings.pickupEta")} value={pickupEta} onChange={setPickupEta} />
      </Section>
      {form.messaging && (
        <Section title={t("settings.offersNews")}>
          <TextInput
            label={t("settings.marketingHours")}
            description={t("settings.marketingHoursHelp")}
            value={form.messaging.marketing_hours}
            onChange={(e) => set({ messaging: { ...form.messaging!, marketing_hours: e.currentTarget.value } })}
          />
        </Section>
      )}
      <Section title={t("settings.handoff")}>
        <Switch label={t("settings.handoffEnabled")} checked={form.handoff.enabled} onChange={(e) => set({ handoff: { ...form.handoff, enabled: e.currentTarget.checked } })} />
        <TextInput label={t("settings.hours")} description={t("settings.hoursHelp")} value={form.handoff.hours ?? ""} onChange={(e) => set({ handoff: { ...form.handoff, hours: e.currentTarget.value } })} />
        <TwoLanguages label={t("settings.responseTime")} value={responseTime} onChange={setResponseTime} />
      </Section>
      {(book || me.data?.takes_bookings) && (
        <Section title={t("settings.appointments")}>
          {!book ? (
            <Button variant="light" onClick={() => setBook({ hours: form.handoff.hours || "Mon-Sat 08:00-18:00", holidays: "", deposit: "", notice: 24, staff: [] })}>
              {t("settings.setAppointments")}
            </Button>
          ) : (
            <Stack gap="xs" data-testid="appointments">
              <TextInput label={t("settings.bookingHours")} description={t("settings.bookingHoursHelp")} value={book.hours} onChange={(e) => setBook({ ...book, hours: e.currentTarget.value })} />
              <TextInput label={t("settings.holidays")} description={t("settings.datesHelp")} value={book.holidays} onChange={(e) => setBook({ ...book, holidays: e.currentTarget.value })} />
              <Group grow align="flex-start">
                <TextInput label={t("settings.deposit")} description={t("catalog.depositHelp")} value={book.deposit} onChange={(e) => setBook({ ...book, deposit: e.currentTarget.value })} />
                <NumberField label={t("settings.notice")} description={t("settings.noticeHelp")} value={book.notice} min={0} max={168} onChange={(v) => setBook({ ...book, notice: v })} />
              </Group>
              <Text size="sm" fw={500}>
                {t("settings.stylists")}
              </Text>
              {book.staff.map((m, i) => {
                const put = (change: Partial<Stylist>) => setBook({ ...book, staff: book.staff.map((x, j) => (j === i ? { ...x, ...change } : x)) });
                return (
                  <Card key={i} withBorder padding="xs" data-testid="stylist">
                    <Group align="flex-end" wrap="nowrap" gap="xs">
                      <TextInput style={{ flex: 1 }} label={t("settings.stylistName")} value={m.name} onChange={(e) => put({ name: e.currentTarget.value })} />
                      <ActionIcon variant="subtle" color="red" aria-label={t("common.delete")} onClick={() => setBook({ ...book, staff: book.staff.filter((_, j) => j !== i) })}>
                        ✕
                      </ActionIcon>
                    </Group>
                    <TextInput label={t("settings.stylistHours")} description={t("settings.stylistHoursHelp")} value={m.hours} onChange={(e) => put({ hours: e.currentTarget.value })} />
                    <TextInput label={t("settings.breaks")} description={t("settings.breaksHelp")} value={m.breaks} onChange={(e) => put({ breaks: e.currentTarget.value })} />
                    <TextInput label={t("settings.daysOff")} description={t("settings.datesHelp")} value={m.daysOff} onChange={(e) => put({ daysOff: e.currentTarget.value })} />
                  </Card>
                );
              })}
              <Button variant="light" onClick={() => setBook({ ...book, staff: [...book.staff, { id: "", name: "", hours: "", breaks: "", daysOff: "" }] })}>
                {t("settings.addStylist")}
              </Button>
            </Stack>
          )}
        </Section>
      )}
      {save.error && (
        <Alert color="red" role="alert">
          {describe(save.error)}
        </Alert>
      )}
      {save.isSuccess && !save.isPending && <Alert color="teal">{t("settings.saved")}</Alert>}
      <Group>
        <Button onClick={() => save.mutate({ f: form, zones, book, pickupAddress, pickupEta, responseTime, location })} loading={save.isPending}>
          {t("settings.save")}
        </Button>
      </Group>
      <StaffSection />
    </Stack>
  );
}

function StaffSection() {
  const { t } = useTranslation();
  const { session } = useAuth();
  const client = useQueryClient();
  const staff = useQuery({ queryKey: ["staff"], queryFn: () => api<StaffMember[]>("/admin/staff") });
  const [email, setEmail] = useState("");
  const [name, setName] = useState("");
  const [role, setRole] = useState<"agent" | "owner">("agent");
  const mine = staff.data?.find((m) => m.email === session?.email?.toLowerCase());
  const [myName, setMyName] = useState<string | null>(null);
  const invite = useMutation({
    mutationFn: () =>
      api<{ member: StaffMember; temporary_password: string }>("/admin/staff", { method: "POST", body: { name: name.trim(), email: email.trim(), role } }),
    onSuccess: () => {
      setEmail("");
      setName("");
      void refresh(client, ["staff"]);
      void refresh(client, ["staff-names"]);
    },
  });
  const rename = useMutation({
    mutationFn: (value: string) => api("/admin/me/name", { method: "PUT", body: { name: value.trim() } }),
    onSuccess: () => {
      void refresh(client, ["staff"]);
      void refresh(client, ["staff-names"]);
    },
  });
  const remove = useMutation({
    mutationFn: (who: string) => api(`/admin/staff/${encodeURIComponent(who)}`, { method: "DELETE" }),
    onSettled: () => void refresh(client, ["staff"]),
  });
  return (
    <Section title={t("settings.staff")}>
      {staff.error && <Failure error={staff.error} />}
      {staff.data?.map((m) => (
        <Group key={m.email} justify="space-between" wrap="nowrap" data-testid="staff-member">
          <div style={{ minWidth: 0 }}>
            <Text size="sm" fw={500} truncate data-testid="staff-name">
              {m.name ?? m.email}
            </Text>
            <Text size="xs" c="dimmed" truncate>
              {m.name ? `${m.email} · ` : ""}
              {t(`roles.${m.role}`)}
            </Text>
          </div>
          <Group gap="xs" wrap="nowrap" style={{ flexShrink: 0 }}>
            <StatusBadge value={m.status} group="staffStatus" />
            {m.email !== session?.email && (
              <Button size="xs" variant="subtle" color="red" onClick={() => remove.mutate(m.email)} loading={remove.isPending && remove.variables === m.email}>
                {t("settings.remove")}
              </Button>
            )}
          </Group>
        </Group>
      ))}
      {mine && (
        <Group align="flex-end" wrap="wrap">
          <TextInput label={t("settings.yourName")} value={myName ?? mine.name ?? ""} onChange={(e) => setMyName(e.currentTarget.value)} style={{ flex: 1, minWidth: 180 }} />
          <Button variant="light" onClick={() => rename.mutate(myName ?? "")} disabled={!(myName ?? "").trim()} loading={rename.isPending}>
            {t("settings.saveName")}
          </Button>
        </Group>
      )}
      <Group align="flex-end" wrap="wrap">
        <TextInput label={t("settings.inviteName")} value={name} onChange={(e) => setName(e.currentTarget.value)} style={{ flex: 1, minWidth: 140 }} />
        <TextInput label={t("settings.inviteEmail")} type="email" value={email} onChange={(e) => setEmail(e.currentTarget.value)} style={{ flex: 1, minWidth: 180 }} />
        <NativeSelect
          label={t("settings.role")}
          data={[
            { value: "agent", label: t("roles.agent") },
            { value: "owner", label: t("roles.owner") },
          ]}
          value={role}
          onChange={(e) => setRole(e.currentTarget.value as "agent" | "owner")}
          w={130}
          
        />
        <Button onClick={() => invite.mutate()} disabled={!email.trim() || !name.trim()} loading={invite.isPending}>
          {t("settings.invite")}
        </Button>
      </Group>
      {invite.data && (
        <Alert color="teal" data-testid="invitation">
          {t("settings.invited", { email: invite.data.member.email })} <Code data-testid="temporary-password">{invite.data.temporary_password}</Code>
        </Alert>
      )}
      {(invite.error || remove.error || rename.error) && (
        <Alert color="red" role="alert">
          {describe(invite.error ?? remove.error ?? rename.error)}
        </Alert>
      )}
    </Section>
  );
}

/** A new stylist's id, from the name, unique in the shop (customers never see it). */
function staffId(name: string, staff: readonly Stylist[]): string {
  const base = slugOf(name).slice(0, 24) || "staff";
  let id = base;
  for (let n = 2; staff.some((m) => m.id === id); n++) id = `${base}-${n}`;
  return id;
}

import { lazy, Suspense, type ReactNode } from "react";
import { BrowserRouter, Navigate, Route, Routes } from "react-router";

import { Loading } from "./screens/common";
import { InboxScreen } from "./screens/Inbox";
import { Layout } from "./screens/Layout";

// The inbox (what staff open first) comes with the first load; every other screen is fetched when first opened
// (the first load stays small on a phone's connection: BENCHMARKS.md, the console).
const AlertsScreen = lazy(() => import("./screens/Alerts").then((m) => ({ default: m.AlertsScreen })));
const AnalyticsScreen = lazy(() => import("./screens/Analytics").then((m) => ({ default: m.AnalyticsScreen })));
const ConversationsScreen = lazy(() =>
  import("./screens/Conversations").then((m) => ({ default: m.ConversationsScreen })),
);
const JoinScreen = lazy(() => import("./screens/Start").then((m) => ({ default: m.JoinScreen })));
const NewShopScreen = lazy(() => import("./screens/Start").then((m) => ({ default: m.NewShopScreen })));
const SignInScreen = lazy(() => import("./screens/SignIn").then((m) => ({ default: m.SignInScreen })));
const OrdersScreen = lazy(() => import("./screens/Orders").then((m) => ({ default: m.OrdersScreen })));
const OrderScreen = lazy(() => import("./screens/Orders").then((m) => ({ default: m.OrderScreen })));
const MessagesScreen = lazy(() => import("./screens/Messages").then((m) => ({ default: m.MessagesScreen })));
const CustomersScreen = lazy(() => import("./screens/Customers").then((m) => ({ default: m.CustomersScreen })));
const BookingsScreen = lazy(() => import("./screens/Bookings").then((m) => ({ default: m.BookingsScreen })));
const CatalogScreen = lazy(() => import("./screens/Catalog").then((m) => ({ default: m.CatalogScreen })));
const KnowledgeScreen = lazy(() => import("./screens/Knowledge").then((m) => ({ default: m.KnowledgeScreen })));
const MoneyScreen = lazy(() => import("./screens/Money").then((m) => ({ default: m.MoneyScreen })));
const OffersScreen = lazy(() => import("./screens/Offers").then((m) => ({ default: m.OffersScreen })));
const PlatformScreen = lazy(() => import("./screens/Platform").then((m) => ({ default: m.PlatformScreen })));
const SetupScreen = lazy(() => import("./screens/Start").then((m) => ({ default: m.SetupScreen })));
const UnderstandingScreen = lazy(() => import("./screens/Understanding"));
const SettingsScreen = lazy(() => import("./screens/Settings").then((m) => ({ default: m.SettingsScreen })));

function Later({ children }: { children: ReactNode }) {
  return <Suspense fallback={<Loading />}>{children}</Suspense>;
}

export function AppRoutes() {
  return (
    <BrowserRouter basename="/console">
      <Routes>
        <Route path="/sign-in" element={<Later><SignInScreen /></Later>} />
        <Route path="/join" element={<Later><JoinScreen /></Later>} />
        <Route path="/new-shop" element={<Later><NewShopScreen /></Later>} />
        <Route path="/platform" element={<Later><PlatformScreen /></Later>} />
        <Route path="/" element={<Layout />}>
          <Route index element={<Navigate to="/inbox" replace />} />
          <Route path="inbox" element={<InboxScreen />} />
          <Route path="inbox/:ticketId" element={<InboxScreen />} />
          <Route path="conversations" element={<Later><ConversationsScreen /></Later>} />
          <Route path="conversations/:customerId" element={<Later><ConversationsScreen /></Later>} />
          <Route path="orders" element={<Later><OrdersScreen /></Later>} />
          <Route path="orders/:orderId" element={<Later><OrderScreen /></Later>} />
          <Route path="messages" element={<Later><MessagesScreen /></Later>} />
          <Route path="customers" element={<Later><CustomersScreen /></Later>} />
          <Route path="bookings" element={<Later><BookingsScreen /></Later>} />
          <Route path="money" element={<Later><MoneyScreen /></Later>} />
          <Route path="catalog" element={<Later><CatalogScreen /></Later>} />
          <Route path="offers" element={<Later><OffersScreen /></Later>} />
          <Route path="knowledge" element={<Later><KnowledgeScreen /></Later>} />
          <Route path="analytics" element={<Later><AnalyticsScreen /></Later>} />
          <Route path="understanding" element={<Later><UnderstandingScreen /></Later>} />
          <Route path="settings" element={<Later><SettingsScreen /></Later>} />
          <Route path="setup" element={<Later><SetupScreen /></Later>} />
          <Route path="alerts" element={<Later><AlertsScreen /></Later>} />
          <Route path="*" element={<Navigate to="/inbox" replace />} />
        </Route>
      </Routes>
    </BrowserRouter>
  );
}

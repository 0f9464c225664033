import { Navigate, createBrowserRouter } from "react-router";

import { Layout } from "./screens/Layout";
import { AnalyticsScreen } from "./screens/Analytics";
import { CatalogScreen } from "./screens/Catalog";
import { InboxScreen } from "./screens/Inbox";
import { KnowledgeScreen } from "./screens/Knowledge";
import { MoneyScreen } from "./screens/Money";
import { OffersScreen } from "./screens/Offers";
import { OrderScreen, OrdersScreen } from "./screens/Orders";
import { SettingsScreen } from "./screens/Settings";
import { SignInScreen } from "./screens/SignIn";

export const router = createBrowserRouter(
  [
    { path: "/sign-in", element: <SignInScreen /> },
    {
      path: "/",
      element: <Layout />,
      children: [
        { index: true, element: <Navigate to="/inbox" replace /> },
        { path: "inbox", element: <InboxScreen /> },
        { path: "inbox/:ticketId", element: <InboxScreen /> },
        { path: "orders", element: <OrdersScreen /> },
        { path: "orders/:orderId", element: <OrderScreen /> },
        { path: "money", element: <MoneyScreen /> },
        { path: "catalog", element: <CatalogScreen /> },
        { path: "offers", element: <OffersScreen /> },
        { path: "knowledge", element: <KnowledgeScreen /> },
        { path: "analytics", element: <AnalyticsScreen /> },
        { path: "settings", element: <SettingsScreen /> },
        { path: "*", element: <Navigate to="/inbox" replace /> },
      ],
    },
  ],
  { basename: "/console" },
);

// Mantine's styles for the components only the screens fetched later use (imported by each of them: the first
// load stays small).
import "@mantine/core/styles/InlineInput.css";
import "@mantine/core/styles/Overlay.css";
import "@mantine/core/styles/Popover.css";
import "@mantine/core/styles/ModalBase.css";
import "@mantine/core/styles/Drawer.css";
import "@mantine/core/styles/Checkbox.css";
import "@mantine/core/styles/Chip.css";
import "@mantine/core/styles/CheckboxIndicator.css";
import "@mantine/core/styles/Code.css";
import "@mantine/core/styles/FloatingIndicator.css";
import "@mantine/core/styles/Divider.css";
import "@mantine/core/styles/Menu.css";
import "@mantine/core/styles/Modal.css";
import "@mantine/core/styles/ScrollArea.css";
import "@mantine/core/styles/SegmentedControl.css";
import "@mantine/core/styles/SimpleGrid.css";
import "@mantine/core/styles/Switch.css";
import "@mantine/core/styles/Table.css";
import "@mantine/core/styles/Timeline.css";

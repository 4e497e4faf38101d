/** The dashboard's UI kit: Tailwind-styled parts on Radix primitives. Import from here. */
export { Button, type ButtonProps, buttonClass } from './button';
export { Card, CardBody, CardHeader } from './card';
export { Checkbox } from './checkbox';
export { cn } from './cn';
export { Code, CodeBlock } from './code';
export { ConfirmDialog } from './confirm-dialog';
export { CopyButton } from './copy-button';
export {
  Dialog,
  DialogClose,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogTitle,
  DialogTrigger,
} from './dialog';
export { EmptyState } from './empty-state';
export { Field } from './field';
export { type Feedback, useFeedback } from './flash';
export { Input } from './input';
export { ErrorNotice, errorCode, errorMessage, fieldErrors, formProblem, Notice } from './notice';
export { PageHeader, SectionHeader } from './page-header';
export { PromptDialog } from './prompt-dialog';
export { Radio, RadioGroup } from './radio';
export { Select } from './select';
export { Spinner } from './spinner';
export { Cluster, Grid, Stack } from './stack';
export { Badge, StatusBadge, type Tone, toneOf } from './status-badge';
export { Table, TableCaption, TBody, Td, THead, Th, Tr } from './table';
export { Tabs, TabsContent, TabsList, TabsTrigger } from './tabs';
export { Textarea } from './textarea';
export { Segmented, ToggleButton } from './toggle';

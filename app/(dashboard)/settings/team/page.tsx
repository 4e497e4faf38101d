import { TeamView } from './team-view';

export const metadata = { title: 'Team · Switchboard' };

export default function TeamPage() {
  return <TeamView />;
}

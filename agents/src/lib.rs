//! Agents for kanaszta (see the agents issue).

"""Acts of a reply: how it opens, what it points at, greetings, thanks and small talk."""

from __future__ import annotations

from intents.reading.acts.entry import Act, Entry, entry

_YES = "=ok|okay|yes|yeah|yep|yup|sure|si|sim|claro|vale|dale|oui|ja|beleza"
_HELLO = (
    "=hi|hello|hey|hiya|howdy|yo|greetings|hola|buenas|bonjour|bonsoir|salut|hallo|servus|moin"
    "|ola|oi"
)
_MODAL = "should|would|will|must|can?"
_TAKES = "take|takes|read|reads|return|returns|give|gives|output|outputs|accept|accepts|produces"
_FINE = "=ok|okay|great|cool|perfect|awesome|nice|super|genial|parfait|prima|otimo"

REPLIES: tuple[Entry, ...] = (
    entry(
        Act.IN_THE_FRAME,
        "An answer that repeats the question's frame ('it takes …', 'it should return …') "
        "answers with what follows the frame; the frame is no part of the answer.",
        f"""
        ^ it|this|skill {_MODAL} {_TAKES} back? as?
        ^ the skill {_MODAL} {_TAKES} back? as?
        """,
        examples=(
            "it should read the Total line and the currency",
            "it should return JSON with amount, currency and due_date",
            "It reads the 'Finance 2024' Google Sheet",
        ),
    ),
    entry(
        Act.RESTRICTS,
        "A reply that opens by narrowing ('only the …', 'just the …') says which of the things "
        "meant count: a detail of what is set up or changed, not an answer to another question.",
        f"""
        ^ only|solo|seulement|uniquement|nur|apenas|somente
        ^ just the|those|for|from
        ^ {_YES} but|pero|mais|aber|mas? only|solo|seulement|nur|apenas|somente
        """,
        examples=(
            "only the ones that changed",
            "only the ones waiting on us",
            "yes but only the marketing cost centers",
            "yes, but only the ones on the annual plan",
        ),
    ),
    entry(
        Act.OPENS_WITH_QUESTION,
        "A message that opens with a question word asks; it does not ask for a change.",
        "^ why|what|whats|when|where|how|who|which|did|does|do|is|are|was|were",
        examples=("why did you move it to 9?", "what does it do?", "is it running?"),
    ),
    entry(
        Act.THE_PROPOSAL,
        "Words that point at the proposal the assistant made.",
        "that|the|your idea|thing|agent|suggestion|proposal",
        examples=(
            "ok, go ahead with that thing",
            "yes, that idea is good",
            "let's build your suggestion",
        ),
    ),
    entry(
        Act.AGAIN,
        "The same thing once more, for another item: do, run, too, also, as well, again.",
        """
        do|run|too|also|same|again|now|next
        as well
        """,
        examples=("now do the third one too", "run the second one as well", "the same again"),
    ),
    entry(
        Act.ABOUT_IT,
        "A word that points at the agent just talked about (it, its, son, sein, su, seu).",
        "it|its|son|sa|ses|sein|seine|su|sus|seu|sua",
        examples=("what's its schedule now?", "when does it run?", "¿cuál es su horario?"),
    ),
    entry(
        Act.OPENS_WITH_YES,
        "A yes at the start takes up what was proposed, whatever details follow it.",
        f"""
        ^ =ok|okay|yes|yeah|yep|yup|sure|si|sim|claro|vale|dale|oui|ja|jawohl|klar|gerne|certo
        ^ =perfect|perfecto|perfeito|parfait|great|beleza|bora|passt
        ^ =lgtm|correct|genau
        ^ looks good
        ^ go ahead
        ^ =do|create it
        ^ va bene
        ^ alles klar
        ^ d accord
        ^ {_YES} …1 go ahead
        ^ {_YES} …1 do|create it
        ^ {_YES} …1 set it up
        ^ {_YES} …1 go ahead and create|build it
        ^ {_YES} …1 go ahead and set it up
        ^ {_YES} …1 pode criar|fazer|configurar|seguir
        ^ {_YES} …1 hazlo|crealo|vas-y
        ^ {_YES} …1 mach es|das
        """,
        examples=("yes, go ahead and create it", "Beleza, pode criar.", "ok sure, at 9am"),
    ),
    entry(
        Act.SMALL_TALK,
        "How are you and its kin ask after the assistant, not after the workspace.",
        """
        how|hows is|are? you
        how|hows is|are? your day|week|morning
        how|hows is? it going
        whats up
        como estas|vai|va
        ca va
        comment vas-tu|allez-vous
        wie gehts
        wie geht es dir
        """,
        examples=("how are you today?", "hey, how's it going", "¿cómo estás?"),
    ),
    entry(
        Act.STOPS,
        "A message that opens with stop or cancel ends the flow it is in.",
        """
        ^ =cancel|stop|abort|nevermind|cancela|annule|abbrechen
        ^ never mind
        ^ forget it|about
        ^ scrap it|that
        """,
        examples=("cancel", "never mind, forget it", "stop please"),
    ),
    entry(
        Act.OPENS_WITH_NO,
        "A no at the start turns down what was shown; what follows it may correct it.",
        "^ =no|nope|nein|non|wait|change\n^ not yet",
        examples=("no, the output should be CSV", "wait, it takes a URL", "nope"),
    ),
    entry(
        Act.SAME_AGAIN,
        "The agent run last, asked for again.",
        """
        again
        same thing|one|agent? as last time|before
        like last time
        last one i ran
        """,
        examples=("run it again", "same as last time please", "do the last one I ran"),
    ),
    entry(
        Act.POINTS_AT_IT,
        "A pronoun, or a bare \u201cthat one\u201d, for the agent just talked about.",
        """
        =it|its|ihn|lo|la|le|ele|ela
        that|this one|agent
        the agent
        """,
        examples=("pause it", "run that one", "setz ihn wieder fort"),
    ),
    entry(
        Act.THE_OTHER_ONE,
        "Of two agents in view, the one not just used.",
        """
        the other one|agent
        l autre
        el otro
        la otra
        der|die|das|den andere|anderen
        o outro
        a outra
        """,
        examples=("now the other one", "run the other agent too", "y el otro"),
    ),
    entry(
        Act.GREETING,
        "A greeting alone, or with what-can-you-do, is answered with a greeting.",
        f"""
        ^ {_HELLO} there|all|team|everyone|omniforge? $
        ^ good morning|afternoon|evening there|all|team|everyone? $
        ^ buenos dias $
        ^ buenas tardes|noches $
        ^ guten morgen|tag|abend $
        ^ bom dia $
        ^ boa tarde $
        ^ {_HELLO} …3 what else? can|could you …1 do $
        ^ {_HELLO} …3 what do you do $
        ^ {_HELLO} …3 how do|does this|it|you work $
        ^ {_HELLO} …3 capabilit* $
        ^ {_HELLO} …3 que puedes|sabes hacer $
        ^ {_HELLO} …3 que peux-tu faire $
        ^ {_HELLO} …3 was kannst du $
        ^ {_HELLO} …3 o que voce? pode|podes|sabe fazer $
        """,
        examples=("hi!", "Hello there, what can you do?", "buenos días"),
    ),
    entry(
        Act.THANKS,
        "Thanks alone is acknowledged, not read as a request.",
        f"""
        ^ {_FINE}? thanks|thx|ty|cheers|gracias|merci|danke|dankeschon|valeu|grazie $
        ^ {_FINE}? thanks a|so? lot|much $
        ^ {_FINE}? thank you|u so? much? $
        ^ {_FINE}? muchas gracias $
        ^ {_FINE}? merci beaucoup|bien $
        ^ {_FINE}? danke schon|dir|euch $
        ^ {_FINE}? vielen dank $
        ^ {_FINE}? muito? obrigado|obrigada $
        """,
        examples=("thanks!", "ok, thank you so much", "Danke schön"),
    ),
)

"""The lexicon's chat spellings, small talk and follow-ups."""

from __future__ import annotations

CONVERSATION: tuple[tuple[str, str, str], ...] = (
    # --- chat spellings ---
    ("the", "", "teh|hte|da"),
    ("you", "", "u|ya|yu"),
    ("your", "", "ur|yr"),
    ("have", "", "hav|hve|haf"),
    ("please", "", "pls|plz|plse|pleas|plox|por favor|s il vous plait|s il te plait|bitte"),
    ("are", "", "r"),
    ("that", "", "dat|tht"),
    ("because", "", "cuz|coz|bc"),
    ("message", "CHAT", "msg|msgs"),
    # --- out of scope and small talk ---
    ("hello", "GREET",
     "hi|hello|hey|hiya|howdy|yo|hola|bonjour|salut|hallo|servus|ola|oi|"
     "good morning|good afternoon|good evening|buenos dias|buenas tardes|guten morgen|"
     "guten tag|bom dia|boa tarde|greetings|sup|whats up|wassup"),
    ("thanks", "THANKS",
     "thanks|thank you|thank u|thx|ty|tysm|gracias|merci|danke|"
     "obrigado|obrigada|cheers|appreciate it|much appreciated|bye|goodbye|see you|"
     "adios|ciao|tschuss|tchau|au revoir|good night|cool|nice|awesome|great job|lol|lmao|"
     "haha|hahaha|hehe|wow|ok cool"),
    ("chitchat", "OOS",
     "weather|que tiempo hace|quel temps|que tempo faz|weather forecast|rain|raining|sunny|snow|"
     "temperature|joke|jokes|"
     "funny|riddle|recipe|recipes|cook|cooking|bake|movie|movies|film|films|song|songs|"
     "music|lyrics|sport|sports|football|soccer|basketball|nba|nfl|score|scores|match|"
     "capital|president|prime minister|election|poem|poems|haiku|limerick|limericks|sonnet|"
     "story|stories|"
     "meaning of life|birthday|restaurant|restaurants|pizza|coffee|lunch|dinner|dog|dogs|"
     "cat|cats|pet|vacation|holiday|travel|flight|flights|hotel|girlfriend|boyfriend|"
     "dating|horoscope|zodiac|chess|trivia|tallest|distance to|moon|planet|dinosaur*|"
     "chiste*|clima|lluvia|blague*|meteo|pluie|witz*|wetter|regen|piada*|chuva|receta|"
     "recette|rezept|receita|pelicula|cancion|chanson|lied|musica|futbol|fussball|"
     "how are you|how r u|hows it going|are you human|are you real|do you love|"
     "marry me|bored|sing|dance|homework|translate|spell|synonym|define|bitcoin|crypto|"
     "stock price|lottery|traffic|news|celebrity|celebrities|gossip|sandwich|tea|beer|"
     "wine|guitar|painting|poetry|novel|book|books|quote|quotes|fact|facts|"
     "como estas|ca va|comment vas|wie gehts|wie geht es|tudo bem|como vai"),
    # --- follow-ups ---
    ("yes", "YES",
     "yes|yeah|yea|yep|yup|ya|yass|sure|ok|okay|okey|k|kk|alright|all right|"
     "absolutely|definitely|of course|please do|go ahead|go for it|do it|do that|do this|"
     "lets do it|lets go|sounds good|sounds great|sounds perfect|perfect|correct|right|"
     "exactly|affirmative|confirm|confirmed|si|claro|vale|dale|de acuerdo|por supuesto|"
     "oui|d accord|bien sur|ouais|volontiers|ja|jawohl|genau|klar|gerne|passt|sim|pode|"
     "isso|beleza|com certeza|claro que sim|yes please|that works|works for me|"
     "that one works|ship it|proceed|carry on|continue|looks good|lgtm|go on|adelante|"
     "vas-y|allez-y|los gehts|bora|manda ver|fire away|certo|va bene|d accordo|perfetto|"
     "volentieri|procedi|vai pure"),
    ("cancel", "NO V_CANCEL",
     "cancel|cancels|cancelled|canceled|cancelling|canceling|cancela|cancelar|annule|"
     "annuler|kundig*|kuendig*|storniere|abbrechen"),
    ("no", "NO",
     "no|nope|nah|not now|no thanks|no thank you|never mind|nevermind|"
     "forget it|dont|do not|not|non|nein|nao|nicht|jamais|nunca|never|negative|"
     "not really|skip it|skip|abort|leave it"),
    ("ordinal", "ORD",
     "first|second|third|fourth|fifth|sixth|last|latter|former|1st|2nd|"
     "3rd|4th|5th|primero|primera|primer|segundo|tercero|tercera|tercer|cuarto|quinto|"
     "ultimo|ultima|premier|premiere|deuxieme|seconde|troisieme|quatrieme|cinquieme|"
     "dernier|derniere|erste|ersten|erster|erstes|zweite|zweiten|zweiter|dritte|dritten|"
     "dritter|vierte|vierten|funfte|letzte|letzten|letzter|primeiro|primeira|terceiro|"
     "terceira|quarto|quarta|quinta|ultimo|option|opcion|opcao|nummer|numero|number"),
    ("instruction_meta", "META",
     "action_type|action type|intent|intents|prompt|"
     "instructions|instruction|system prompt|jailbreak|override|disregard"),
)  # fmt: skip

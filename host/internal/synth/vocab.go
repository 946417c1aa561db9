package synth

// The vocabulary generated documents draw from: types seen on identity
// chains and in DID registries, and the values of credential subjects.

var serviceTypes = []string{
	"HiveVault", "DIDCommMessaging", "LinkedDomains", "CredentialRepositoryService", "ProfilePage",
	"CarrierAddress", "HubService", "IdentityHub", "SocialWebInboxService", "LinkedIn",
	"Twitter", "GitHub", "Telegram", "Discord", "WebSite", "Blog", "Email", "Phone",
	"PaymentAddress", "ELAAddress", "ESCAddress", "EIDAddress", "NFTGallery", "AvatarService",
	"OAuthService", "OpenID", "VerifiableDataRegistry", "StatusList", "Messaging", "Storage",
}

var credentialTypes = []string{
	"ProfileCredential", "EmailCredential", "PhoneCredential", "SocialCredential", "NameCredential",
	"NationalityCredential", "BirthDateCredential", "AddressCredential", "EducationCredential",
	"EmploymentCredential", "MembershipCredential", "KYCCredential", "AgeOver18Credential",
	"DriverLicenseCredential", "PassportCredential", "HealthInsuranceCredential", "WalletCredential",
	"NFTOwnershipCredential", "DAOVoterCredential", "CouncilMemberCredential", "DeveloperCredential",
	"CertificationCredential", "AwardCredential", "EventTicketCredential", "LoyaltyCredential",
	"ResidenceCredential", "TaxIDCredential", "BankAccountCredential", "LicenseCredential", "AvatarCredential",
}

var givenNames = []string{
	"Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy", "Mallory",
	"Niaj", "Olivia", "Peggy", "Quentin", "Rupert", "Sybil", "Trent", "Uma", "Victor", "Walter",
	"Xena", "Yusuf", "Zoe", "Amir", "Bea", "Chen", "Dara", "Emeka", "Fatima", "Goran", "Hana",
}

var familyNames = []string{
	"Smith", "Garcia", "Müller", "Wang", "Kim", "Nguyen", "Silva", "Ivanova", "Okafor", "Rossi",
	"Dubois", "Tanaka", "Kowalski", "Haddad", "Andersen", "Novak", "Costa", "Schmidt", "Li", "Khan",
}

var countries = []string{"CN", "US", "DE", "FR", "SG", "JP", "KR", "GB", "BR", "IN", "NG", "CA", "AU", "ES", "IT", "NL"}

var cities = []string{"Beijing", "Shanghai", "Berlin", "Paris", "Singapore", "Tokyo", "Seoul", "London", "São Paulo", "Mumbai", "Lagos", "Toronto"}

var languages = []string{"en", "zh", "de", "fr", "ja", "ko", "es", "pt", "hi", "it"}

var words = []string{"acme", "nova", "orbit", "pixel", "delta", "lumen", "cobalt", "ember", "harbor", "quartz", "sierra", "tundra"}
